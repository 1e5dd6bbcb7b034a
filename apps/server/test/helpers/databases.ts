/** The databases every API test runs against: PGlite always; a fresh PostgreSQL database when 127.0.0.1:5432 answers. */
import { randomBytes } from 'node:crypto';
import { openDatabase, type TOpenedDatabase } from '@rpc/db';
import postgres from 'postgres';

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TTestDatabase = { name: string; open: () => Promise<TOpenedDatabase> };

async function postgresReachable(): Promise<string | null> {
  const sql = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Creates test_<random> for this run and drops it on close. */
async function openFreshPostgres(): Promise<TOpenedDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const opened = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: 'unused',
    maxConnections: 5,
  });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const unreachable = await postgresReachable();
if (unreachable) {
  console.warn(`[api tests] PostgreSQL variant skipped: ${ADMIN_URL} unreachable (${unreachable})`);
}

export const TEST_DATABASES: TTestDatabase[] = [
  { name: 'pglite', open: () => openDatabase({ dataDir: 'memory://' }) },
  ...(unreachable ? [] : [{ name: 'postgres', open: openFreshPostgres }]),
];
