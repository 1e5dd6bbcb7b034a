/**
 * CSV exports on each test database, with pg-boss for real as the job engine: files equal the list methods'
 * rows under the same filters, a repeated request answers the open job, downloads need the owner's token, a job
 * queued before a stop is done after a restart on the same database, and bad input queues nothing.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type TExportJob } from '@rpc/contract';
import { deposits, exportJobs, notices, users, type TDatabase } from '@rpc/db';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ARGON2_COST } from '../src/lib/password';
import { createServer } from '../src/server';
import { CSV_BOM } from '../src/services/exports/csv';
import { postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, TEST_API_KEY_SECRET, type THarness } from './helpers/harness';

/** Parses what toCsv writes (quoted fields, CRLF), for comparing a file with list rows. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith(CSV_BOM)).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.slice(1);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe.each(TEST_DATABASES)('exports on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
    await h.server.start();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, userId: u!.id, accountId: u!.personalAccountId };
  }

  async function buy(token: string, accountId: string, skuIds: string[]) {
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId,
        delta: 10_000_000,
        kind: 'deposit',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
    for (const skuId of skuIds) {
      const res = await h.call(
        'hub_buyPackage',
        { skuId, idempotencyKey: randomUUID() },
        { token },
      );
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      h.clock.advance(1000);
    }
  }

  async function addDeposits(accountId: string, n: number) {
    await db.insert(deposits).values(
      Array.from({ length: n }, (_, i) => ({
        accountId,
        chain: 'localnet',
        coin: 'USDT',
        txHash: `0x${randomUUID().replaceAll('-', '')}${'0'.repeat(32)}`,
        logIndex: i,
        blockNumber: 10 + i,
        blockHash: `0x${'ab'.repeat(32)}`,
        fromAddress: null,
        toAddress: '0x0000000000000000000000000000000000000001',
        amount: String(1_000_000 * (i + 1)),
        usdCents: 100 * (i + 1),
        status: 'confirmed' as const,
        creditedAt: new Date(h.clock.now() + i * 1000),
      })),
    );
  }

  async function untilDone(token: string, exportId: string): Promise<TExportJob> {
    for (let i = 0; i < 200; i++) {
      const res = await h.call('hub_getExportStatus', { exportId }, { token });
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      if (res.result.status === 'done' || res.result.status === 'failed') return res.result;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('export never finished');
  }

  async function download(url: string) {
    const u = new URL(url);
    return fetch(h.server.url + u.pathname + u.search);
  }

  /** The body as sent, byte-order mark included (Response.text() would drop it). */
  async function textOf(res: Response): Promise<string> {
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  }

  it('exports purchases with filters exactly as hub_getViewUserPurchaseInfo lists them', async () => {
    const u = await user();
    await buy(u.token, u.accountId, ['standard-100m', 'standard-500m', 'standard-100m']);
    for (const filter of [
      { packageType: 'standard', sort: 'asc' },
      { packageType: 'all', sort: 'desc' },
      { packageType: 'free', sort: 'desc' },
      { channel: 'card' },
    ] as const) {
      const list = await h.call(
        'hub_getViewUserPurchaseInfo',
        { ...filter, page: 1, perPage: 100 },
        { token: u.token },
      );
      const started = await h.call('hub_getViewUserPurchaseInfoCsv', filter, { token: u.token });
      expect(started.ok).toBe(true);
      const done = await untilDone(u.token, started.result!.exportId);
      expect(done).toMatchObject({ status: 'done', kind: 'purchase', rows: list.result!.total });
      const res = await download(done.downloadUrl!);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="purchases-/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const [header, ...rows] = parseCsv(await textOf(res));
      expect(header).toEqual(expect.arrayContaining(['id', 'createdAt', 'paidUsd', 'skuName']));
      const idCol = header!.indexOf('id');
      expect(rows.map((r) => r[idCol])).toEqual(list.result!.list.map((p) => p.id));
      const first = list.result!.list[0];
      if (first) {
        expect(rows[0]![header!.indexOf('createdAt')]).toBe(
          new Date(first.createdAt).toISOString(),
        );
        expect(rows[0]![header!.indexOf('paidUsd')]).toMatch(/^\d+\.\d\d$/);
      }
    }
    // The notice: file_download for the user who asked, with what the web shows.
    const got = await db
      .select()
      .from(notices)
      .where(and(eq(notices.userId, u.userId), eq(notices.type, 'file_download')));
    expect(got).toHaveLength(4);
    expect(got[0]!.expand).toMatchObject({
      type: 'purchase',
      name: expect.stringMatching(/\.csv$/),
    });
  });

  it('exports deposits as hub_getWalletDeposit lists them, Chinese SKU names when asked', async () => {
    const u = await user();
    await addDeposits(u.accountId, 7);
    const list = await h.call(
      'hub_getWalletDeposit',
      { sort: 'asc', page: 1, perPage: 100 },
      { token: u.token },
    );
    const started = await h.call(
      'hub_getViewUserDepositInfoCsv',
      { sort: 'asc' },
      { token: u.token },
    );
    const done = await untilDone(u.token, started.result!.exportId);
    expect(done.rows).toBe(7);
    const [header, ...rows] = parseCsv(await textOf(await download(done.downloadUrl!)));
    expect(rows.map((r) => r[header!.indexOf('id')])).toEqual(list.result!.list.map((d) => d.id));
    expect(rows.map((r) => r[header!.indexOf('usdAmount')])).toEqual(
      list.result!.list.map((d) => (d.usdCents / 100).toFixed(2)),
    );
    // Card deposits do not exist: an empty file with its header.
    const card = await h.call(
      'hub_getViewUserDepositInfoCsv',
      { channel: 'card' },
      { token: u.token },
    );
    const cardDone = await untilDone(u.token, card.result!.exportId);
    expect(cardDone.rows).toBe(0);

    await buy(u.token, u.accountId, ['standard-100m']);
    const zh = await h.call(
      'hub_getViewUserPurchaseInfoCsv',
      { language: 'zh' },
      { token: u.token },
    );
    const zhDone = await untilDone(u.token, zh.result!.exportId);
    const text = await textOf(await download(zhDone.downloadUrl!));
    expect(text).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers a repeated request with the job still queued, and starts a new one once done', async () => {
    const u = await user();
    // No worker in this server: jobs stay queued.
    const idle = await createServer({
      db,
      clock: h.clock,
      argon2Cost: TEST_ARGON2_COST,
      logger: pino({ level: 'silent' }),
      webDistDir: '/nonexistent',
      exportWorker: false,
      env: { PORT: 0, PUBLIC_URL: 'http://console.test', API_KEY_SECRET: TEST_API_KEY_SECRET },
    });
    try {
      const { createContext } = await import('../src/rpc/context');
      const { dispatch } = await import('../src/rpc/dispatcher');
      const ctx = createContext(idle.deps, { token: u.token });
      const call = async (params: object) =>
        (
          (await dispatch(ctx, { method: 'hub_getViewUserPurchaseInfoCsv', params, id: 1 })) as {
            result: TExportJob;
          }
        ).result;
      const [a, b] = await Promise.all([call({ sort: 'asc' }), call({ sort: 'asc' })]);
      expect(a.status).toBe('queued');
      expect(b.exportId).toBe(a.exportId);
      expect((await call({ sort: 'asc', channel: 'all' })).exportId).toBe(a.exportId);
      const other = await call({ sort: 'desc' });
      expect(other.exportId).not.toBe(a.exportId);
      // The same pg-boss queue runs them in the started server.
      const done = await untilDone(u.token, a.exportId);
      expect(done.status).toBe('done');
      const again = await call({ sort: 'asc' });
      expect(again.exportId).not.toBe(a.exportId);
      await untilDone(u.token, again.exportId);
      await untilDone(u.token, other.exportId);
    } finally {
      await idle.stop();
    }
  });

  it('serves a file only with a valid token for that export: 404 otherwise', async () => {
    const owner = await user();
    const stranger = await user();
    await addDeposits(owner.accountId, 2);
    await addDeposits(stranger.accountId, 1);
    const mine = await untilDone(
      owner.token,
      (await h.call('hub_getViewUserDepositInfoCsv', {}, { token: owner.token })).result!.exportId,
    );
    const theirs = await untilDone(
      stranger.token,
      (await h.call('hub_getViewUserDepositInfoCsv', {}, { token: stranger.token })).result!
        .exportId,
    );
    const url = new URL(mine.downloadUrl!);
    const token = url.searchParams.get('token')!;
    const theirToken = new URL(theirs.downloadUrl!).searchParams.get('token')!;
    const get = (path: string) => fetch(h.server.url + path);
    expect((await get(url.pathname + url.search)).status).toBe(200);
    // Status of another account's export: 50404, and no link for it.
    const peek = await h.call(
      'hub_getExportStatus',
      { exportId: theirs.exportId },
      { token: owner.token },
    );
    expect(peek.error?.code).toBe(ERROR_CODES.NOT_FOUND);
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const path of [
      `/exports/${theirs.exportId}/download?token=${token}`,
      `/exports/${mine.exportId}/download?token=${theirToken}`,
      `/exports/${mine.exportId}/download?token=${tampered}`,
      `/exports/${mine.exportId}/download`,
      `/exports/${mine.exportId}/download?token=`,
      `/exports/not-a-uuid/download?token=${token}`,
      `/exports/${randomUUID()}/download?token=${token}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('0x');
    }
    // Expired after 24 hours; a fresh status read hands out a new link.
    h.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect((await get(url.pathname + url.search)).status).toBe(404);
    const fresh = await h.call(
      'hub_getExportStatus',
      { exportId: mine.exportId },
      { token: owner.token },
    );
    const freshUrl = new URL(fresh.result!.downloadUrl!);
    expect((await get(freshUrl.pathname + freshUrl.search)).status).toBe(200);
  });

  it.each([
    ['hub_getViewUserPurchaseInfoCsv', { channel: 'paypal' }],
    ['hub_getViewUserPurchaseInfoCsv', { packageType: 'x'.repeat(100_000) }],
    ['hub_getViewUserPurchaseInfoCsv', { sort: 1 }],
    ['hub_getViewUserPurchaseInfoCsv', { language: 'fr' }],
    ['hub_getViewUserPurchaseInfoCsv', { channel: null }],
    ['hub_getViewUserDepositInfoCsv', { sort: 'sideways' }],
    ['hub_getViewUserDepositInfoCsv', { channel: '=cmd|calc' }],
    ['hub_getExportStatus', { exportId: 'x'.repeat(10_000) }],
    ['hub_getExportStatus', {}],
  ] as const)('%s %# → 10004 and nothing queued', async (method, params) => {
    const u = await user();
    const res = await h.raw({ method, params, id: 1 }, { token: u.token });
    expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
    const [n] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(exportJobs)
      .where(eq(exportJobs.accountId, u.accountId));
    expect(n!.n).toBe(0);
  });

  it('needs a session', async () => {
    const res = await h.call('hub_getViewUserDepositInfoCsv', {});
    expect(res.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
  });
});

describe.each(TEST_DATABASES)('an export queued before a stop, on $name', ({ open }) => {
  it('is done after a restart on the same database', async () => {
    // The harness never calls start(): its server queues jobs in pg-boss but runs none.
    const h = await createHarness(open);
    let second: Awaited<ReturnType<typeof createServer>> | undefined;
    try {
      const s = await h.signUp();
      const queued = await h.call('hub_getViewUserPurchaseInfoCsv', {}, { token: s.token });
      expect(queued.result!.status).toBe('queued');
      await h.server.stop();

      second = await createServer({
        db: h.database.db,
        clock: h.clock,
        argon2Cost: TEST_ARGON2_COST,
        logger: pino({ level: 'silent' }),
        webDistDir: '/nonexistent',
        env: {
          PORT: 0,
          SMTP_URL: h.smtp.url,
          PUBLIC_URL: 'http://console.test',
          API_KEY_SECRET: TEST_API_KEY_SECRET,
        },
      });
      await second.start();
      const { createContext } = await import('../src/rpc/context');
      const { dispatch } = await import('../src/rpc/dispatcher');
      const ctx = createContext(second.deps, { token: s.token });
      let status = '';
      for (let i = 0; i < 200 && status !== 'done'; i++) {
        const res = (await dispatch(ctx, {
          method: 'hub_getExportStatus',
          params: { exportId: queued.result!.exportId },
          id: 1,
        })) as { result: TExportJob };
        status = res.result.status;
        if (status !== 'done') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('done');
    } finally {
      await second?.stop();
      await h.smtp.close();
      await h.database.close();
    }
  });
});
