/**
 * A database as an earlier version of the product left it: migrated up to a named migration, seeded with SQL,
 * then opened (and so migrated to the current schema) by the test. PGlite in a temporary folder, or a fresh
 * PostgreSQL database.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_DIR, openDatabase, type TOpenedDatabase } from '@rpc/db';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TLegacyDatabase = {
  /** Opens (and migrates to the current schema) the same database; close() keeps it. */
  open: () => Promise<TOpenedDatabase>;
  destroy: () => Promise<void>;
};

/** A copy of the migrations folder that stops at `tag`. */
async function migrationsUpTo(tag: string): Promise<string> {
  const journalFile = path.join(MIGRATIONS_DIR, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const last = journal.entries.findIndex((e) => e.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  await mkdir(path.join(dir, 'meta'));
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries)
    await copyFile(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/** `kind` is a TEST_DATABASES name: 'pglite', or anything else for PostgreSQL. */
export async function legacyDatabase(
  kind: string,
  lastMigration: string,
  seed: string,
  maxConnections = 5,
): Promise<TLegacyDatabase> {
  const migrationsFolder = await migrationsUpTo(lastMigration);
  try {
    if (kind === 'pglite') {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'legacy-pglite-'));
      const client = new PGlite(path.join(dataDir, 'pglite'));
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
      await client.exec(seed);
      await client.close();
      return {
        open: () => openDatabase({ dataDir }),
        destroy: () => rm(dataDir, { recursive: true, force: true }),
      };
    }
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
    await client.unsafe(seed);
    await client.end();
    return {
      open: () => openDatabase({ databaseUrl: url.toString(), dataDir: 'unused', maxConnections }),
      destroy: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  } finally {
    await rm(migrationsFolder, { recursive: true, force: true });
  }
}
