/**
 * The databases of bench/reports.ts: a fresh PostgreSQL database (created and dropped here) or PGlite in a temp
 * dir, opened like packages/db does (same migrations), but with a drizzle logger that can record the SQL one
 * report call runs, and a raw EXPLAIN (ANALYZE, BUFFERS) for it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_DIR, openDatabase, type TDatabase, type TOpenedDatabase } from '@rpc/db';
import * as schema from '@rpc/db';
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';

export type TBenchDbKind = 'postgres' | 'pglite';

export type TCapturedQuery = { query: string; params: unknown[] };

export type TBenchDatabase = {
  kind: TBenchDbKind;
  /** what the report was run against, for the doc (database name or "temp dir") */
  where: string;
  opened: TOpenedDatabase;
  /** records every query while on */
  capture: { on: boolean; queries: TCapturedQuery[] };
  explain: (q: TCapturedQuery) => Promise<string[]>;
  /** the server version string */
  version: () => Promise<string>;
  /** closes and deletes the database */
  destroy: () => Promise<void>;
};

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function captureLogger(capture: TBenchDatabase['capture']): Logger {
  return {
    logQuery(query, params) {
      if (capture.on) capture.queries.push({ query, params });
    },
  };
}

export async function openBenchDatabase(kind: TBenchDbKind): Promise<TBenchDatabase> {
  const capture = { on: false, queries: [] as TCapturedQuery[] };
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-reports-'));
    const client = new PGlite(path.join(dir, 'pglite'));
    const db = drizzlePglite({ client, schema, logger: captureLogger(capture) });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await client.close();
    };
    return {
      kind,
      where: dir,
      opened: { db: db as unknown as TDatabase, kind: 'pglite', close },
      capture,
      explain: async (q) =>
        (
          await client.query<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers) ${q.query}`,
            q.params as never[],
          )
        ).rows.map((r) => r['QUERY PLAN']),
      version: async () => {
        const r = (
          await client.query<{ v: string; wm: string }>(
            `select split_part(version(), ',', 1) as v, current_setting('work_mem') as wm`,
          )
        ).rows[0]!;
        return `${r.v} (work_mem ${r.wm})`;
      },
      destroy: async () => {
        await close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const external = process.env.DATABASE_URL;
  const name = external
    ? new URL(external).pathname.slice(1)
    : `bench_reports_${randomBytes(5).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const url = new URL(external ?? ADMIN_URL);
  if (!external) {
    await admin.unsafe(`create database ${name}`);
    url.pathname = `/${name}`;
  }
  // Migrate exactly as the server does, then reopen with the capturing logger.
  const migrated = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: 'unused',
    maxConnections: 1,
  });
  await migrated.close();
  const client = postgres(url.toString(), { max: 10, onnotice: () => {} });
  const db = drizzlePostgres({ client, schema, logger: captureLogger(capture) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.end({ timeout: 5 });
  };
  return {
    kind,
    where: name,
    opened: { db: db as unknown as TDatabase, kind: 'postgres', close },
    capture,
    explain: async (q) =>
      (
        await client.unsafe<Array<{ 'QUERY PLAN': string }>>(
          `explain (analyze, buffers) ${q.query}`,
          q.params as never[],
        )
      ).map((r) => r['QUERY PLAN']),
    version: async () => {
      const [r] = await client.unsafe<Array<{ v: string; sb: string; wm: string }>>(
        `select split_part(version(), ',', 1) as v, current_setting('shared_buffers') as sb,
           current_setting('work_mem') as wm`,
      );
      return `${r!.v} (shared_buffers ${r!.sb}, work_mem ${r!.wm}, the server's defaults)`;
    },
    destroy: async () => {
      await close();
      if (!external) await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
