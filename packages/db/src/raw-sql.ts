/**
 * Plain SQL text with $1… parameters over the same client drizzle uses, PGlite or postgres-js: what a library
 * written for node-postgres's `query(text, values)` (pg-boss) needs, without a second connection pool.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';
import type { TDatabase } from './client';

export type TRawSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export function rawSqlOf(db: TDatabase): TRawSql {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) {
    return async (text, values) => {
      // Without parameters the text may hold several statements (pg's simple query protocol does the same).
      if (!values || values.length === 0) {
        try {
          const results = await client.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        } catch (err) {
          // A failed statement inside the text's BEGIN … COMMIT leaves the one connection in an aborted
          // transaction that every later query (drizzle's too) would fail on: end it here.
          await client.exec('ROLLBACK').catch(() => {});
          throw err;
        }
      }
      return { rows: (await client.query(text, values)).rows };
    };
  }
  const sql = client as Sql;
  return async (text, values) => {
    if (!values || values.length === 0) {
      // Several statements may include BEGIN … COMMIT: run them on one reserved connection.
      const reserved = await sql.reserve();
      try {
        const result: unknown = await reserved.unsafe(text).simple();
        const last: unknown =
          Array.isArray(result) && Array.isArray(result.at(-1)) ? result.at(-1) : result;
        return { rows: [...(last as unknown[])] };
      } catch (err) {
        // Never hand a connection back to the pool inside an aborted transaction.
        await reserved.unsafe('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        reserved.release();
      }
    }
    // As node-postgres does: undefined is NULL, a plain object is sent as JSON text.
    const params = values.map((v) =>
      v === undefined
        ? null
        : v !== null &&
            typeof v === 'object' &&
            !Array.isArray(v) &&
            !(v instanceof Date) &&
            !Buffer.isBuffer(v)
          ? JSON.stringify(v)
          : v,
    ) as never[];
    return { rows: [...(await sql.unsafe(text, params))] };
  };
}
