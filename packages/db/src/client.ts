/** Opens the database: embedded PGlite by default, PostgreSQL when a URL is given; same schema, same SQL, migrated on open. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema/index';

export type TSchema = typeof schema;

/**
 * What services see: the driver-independent PostgreSQL surface of drizzle. Both drivers speak the
 * same dialect, so a service written against this runs unchanged on PGlite and on PostgreSQL.
 */
export type TDatabase = PgDatabase<PgQueryResultHKT, TSchema>;
/** A transaction handle, or the database itself: helpers that may run inside a transaction take this. */
export type TExecutor = Parameters<Parameters<TDatabase['transaction']>[0]>[0] | TDatabase;

export type TDatabaseKind = 'pglite' | 'postgres';

export type TOpenDatabaseOptions = {
  /** postgres://… — when set, PostgreSQL through postgres-js; otherwise embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data lives in `${dataDir}/pglite`; 'memory://' keeps it in memory (tests). */
  dataDir: string;
  /** postgres-js pool size (default 10). */
  maxConnections?: number;
};

export type TOpenedDatabase = {
  db: TDatabase;
  kind: TDatabaseKind;
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** Any fixed number: every instance in scale mode takes the same advisory lock while migrating. */
const MIGRATION_LOCK_ID = 727_001;

export async function openDatabase(opts: TOpenDatabaseOptions): Promise<TOpenedDatabase> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.maxConnections ?? 10);
  return openPglite(opts.dataDir);
}

async function openPglite(dataDir: string): Promise<TOpenedDatabase> {
  let client: PGlite;
  if (dataDir === 'memory://') {
    client = new PGlite();
  } else {
    const dir = path.resolve(dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    client = new PGlite(dir);
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    // The PGlite and postgres-js databases differ only in their query-result type parameter.
    db: db as unknown as TDatabase,
    kind: 'pglite',
    close: () => client.close(),
  };
}

async function openPostgres(url: string, max: number): Promise<TOpenedDatabase> {
  // Migrate over one dedicated connection holding an advisory lock, so several instances
  // starting together (scale mode) do not race on the same migration.
  const migrationClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrationClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres({ client: migrationClient }), {
      migrationsFolder: MIGRATIONS_DIR,
    });
    await migrationClient`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await migrationClient.end();
  }
  const client = postgres(url, { max, onnotice: () => {} });
  const db = drizzlePostgres({ client, schema });
  return {
    db: db as unknown as TDatabase,
    kind: 'postgres',
    close: () => client.end({ timeout: 5 }),
  };
}
