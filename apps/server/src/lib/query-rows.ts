import type { TExecutor } from '@rpc/db';
import type { SQL } from 'drizzle-orm';

/** Rows of db.execute: postgres-js answers an array, PGlite an object with `rows`. */
export async function queryRows<T>(db: TExecutor, query: SQL): Promise<T[]> {
  const res: unknown = await db.execute(query);
  return Array.isArray(res) ? (res as T[]) : ((res as { rows?: T[] }).rows ?? []);
}
