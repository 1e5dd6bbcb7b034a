/** The notice WebSocket (SPEC §4): sign-in by query, frames, close codes, heartbeat, fan-out over real Redis. */
import { randomBytes } from 'node:crypto';
import {
  NOTICE_SOCKET_CLOSE,
  NOTICE_SOCKET_PATH,
  ZNoticeFrameSchema,
  type TNoticeFrame,
  type TNoticeType,
} from '@rpc/contract';
import { sessions, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TEST_ARGON2_COST } from '../src/lib/password';
import { raiseNotice } from '../src/services/notices/raise-notice';
import { createServer, type TConsoleServer } from '../src/server';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, TEST_API_KEY_SECRET, type THarness } from './helpers/harness';

type TClient = {
  ws: WebSocket;
  frames: TNoticeFrame[];
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `n` frames arrived. */
  frameCount: (n: number, timeoutMs?: number) => Promise<TNoticeFrame[]>;
};

function connect(baseUrl: string, query: string): TClient {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${NOTICE_SOCKET_PATH}${query}`);
  const frames: TNoticeFrame[] = [];
  ws.on('message', (data) => frames.push(ZNoticeFrameSchema.parse(JSON.parse(String(data)))));
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const frameCount = async (n: number, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length < n) {
      if (Date.now() > deadline)
        throw new Error(`${frames.length} of ${n} frames in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return frames;
  };
  return { ws, frames, opened, closed, frameCount };
}

const withToken = (token: string) => `?authorization=${encodeURIComponent(token)}`;

/** Resolves within `ms` or rejects: a close that never comes fails the test instead of hanging it. */
function within<T>(p: Promise<T>, ms = 3000): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms),
    ),
  ]);
}

async function userIdOf(h: THarness, email: string): Promise<string> {
  const [u] = await h.database.db.select().from(users).where(eq(users.email, email));
  return u!.id;
}

function raise(server: TConsoleServer, userId: string, type: TNoticeType = 'low_ru') {
  return raiseNotice({
    db: server.deps.db,
    bus: server.deps.noticeBus,
    at: Date.now(),
    type,
    title: 'Low RUs',
    content: 'Your RUs are running low.',
    expand: { amount: 5 },
    userId,
  });
}

describe.each(TEST_DATABASES)('notice socket on $name', ({ open }) => {
  let h: THarness;
  let url: string;
  beforeAll(async () => {
    h = await createHarness(open, { noticeHeartbeatMs: 150 });
    url = await h.server.start();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a missing, unknown, malformed, ended or expired token with 4401 and a reason', async () => {
    const s = await h.signUp();
    const ended = await h.signUp();
    await h.call('hub_logout', {}, { token: ended.token });
    const cases: Array<[string, string]> = [
      ['', 'missing or unknown token'],
      ['?authorization=', 'missing or unknown token'],
      [withToken('x'.repeat(40)), 'missing or unknown token'],
      [withToken('bad token!'), 'missing or unknown token'],
      [withToken(ended.token), 'session ended'],
    ];
    for (const [query, reason] of cases) {
      const c = connect(url, query);
      expect(await within(c.closed), query).toEqual({
        code: NOTICE_SOCKET_CLOSE.UNAUTHORIZED,
        reason,
      });
    }
    h.clock.advance(31 * 24 * 3600_000);
    try {
      const c = connect(url, withToken(s.token));
      expect(await within(c.closed)).toEqual({
        code: NOTICE_SOCKET_CLOSE.UNAUTHORIZED,
        reason: 'session expired',
      });
    } finally {
      h.clock.advance(-31 * 24 * 3600_000);
    }
  });

  it('pushes a raised notice at once to every socket of its user only, as a SPEC §4 frame', async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const [a1, a2, b1] = [
      connect(url, withToken(a.token)),
      connect(url, withToken(`Bearer ${a.token}`)),
      connect(url, withToken(b.token)),
    ];
    await Promise.all([a1.opened, a2.opened, b1.opened]);
    // Sign-in on the socket is asynchronous: wait until the server has registered them.
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const [row] = await raise(h.server, await userIdOf(h, a.email));
    for (const c of [a1, a2]) {
      const [frame] = await c.frameCount(1);
      expect(frame).toEqual({
        params: {
          type: 'message',
          body: {
            id: row!.id,
            type: 'low_ru',
            title: 'Low RUs',
            content: 'Your RUs are running low.',
            createdAt: row!.createdAt.getTime(),
            read: false,
            teamId: null,
            expand: { amount: 5 },
          },
        },
      });
    }
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(b1.frames).toEqual([]);
    for (const c of [a1, a2, b1]) c.ws.close();
  });

  it('logout closes the socket of that session with 4403; other sessions stay open', async () => {
    const s = await h.signUp();
    const other = await h.call('hub_login', {
      email: s.email,
      password: (await import('./helpers/harness')).digest(s.password),
    });
    const mine = connect(url, withToken(s.token));
    const theirs = connect(url, withToken(other.result!.token));
    await Promise.all([mine.opened, theirs.opened]);
    await new Promise((r) => setTimeout(r, 100));
    await h.call('hub_logout', {}, { token: s.token });
    expect(await within(mine.closed, 1000)).toEqual({
      code: NOTICE_SOCKET_CLOSE.SESSION_ENDED,
      reason: 'session ended',
    });
    await new Promise((r) => setTimeout(r, 400)); // a few heartbeats
    expect(theirs.ws.readyState).toBe(WebSocket.OPEN);
    theirs.ws.close();
  });

  it('a session revoked behind the bus’s back closes on the next heartbeat', async () => {
    const s = await h.signUp();
    const c = connect(url, withToken(s.token));
    await c.opened;
    await new Promise((r) => setTimeout(r, 100));
    await h.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.userId, await userIdOf(h, s.email)));
    expect((await within(c.closed, 2000)).code).toBe(NOTICE_SOCKET_CLOSE.SESSION_ENDED);
  });

  it('a peer that stops answering pings is dropped', async () => {
    const s = await h.signUp();
    const c = connect(url, withToken(s.token));
    await c.opened;
    // ws answers pings by itself; pausing the socket stops it reading them, like a dead peer.
    const raw = (c.ws as unknown as { _socket: { pause: () => void; resume: () => void } })._socket;
    raw.pause();
    // Two heartbeats (150 ms) without a pong and the server terminates; reading again shows the bare end.
    await new Promise((r) => setTimeout(r, 600));
    raw.resume();
    expect((await within(c.closed, 3000)).code).toBe(1006);
  });
});

describe.each(TEST_DATABASES)('notice socket shutdown on $name', ({ open }) => {
  it('graceful stop closes open sockets with 1001', async () => {
    const h = await createHarness(open);
    try {
      const url = await h.server.start();
      const s = await h.signUp();
      const c = connect(url, withToken(s.token));
      await c.opened;
      await new Promise((r) => setTimeout(r, 100));
      const stopping = h.server.stop();
      expect((await within(c.closed)).code).toBe(NOTICE_SOCKET_CLOSE.GOING_AWAY);
      await stopping;
    } finally {
      // stop is idempotent enough for close(): app.close twice resolves
      await h.smtp.close();
      await h.database.close();
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const hasRedis = await redisReachable();
if (!hasRedis)
  console.warn(`[api tests] notice fan-out over Redis skipped: ${REDIS_URL} unreachable`);

describe.skipIf(!hasRedis).each(TEST_DATABASES)(
  'notice fan-out across instances over Redis on $name',
  ({ open }) => {
    let h: THarness;
    let other: TConsoleServer;
    const channel = `test:notices:${randomBytes(6).toString('hex')}`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true });
    beforeAll(async () => {
      h = await createHarness(open, {
        noticeChannel: channel,
        env: { REDIS_URL },
        redisKeyPrefix: `test:throttle:${randomBytes(6).toString('hex')}:`,
      });
      // A second console process: same database, its own sockets, Redis between them.
      other = await createServer({
        db: h.database.db,
        argon2Cost: TEST_ARGON2_COST,
        logger: pino({ level: 'silent' }),
        env: {
          PORT: 0,
          REDIS_URL,
          PUBLIC_URL: 'http://console.test',
          GATEWAY_PUBLIC_URL: 'http://gw.test',
          API_KEY_SECRET: TEST_API_KEY_SECRET,
        },
        noticeChannel: channel,
        webDistDir: '/nonexistent',
      });
      await Promise.all([h.server.start(), other.start()]);
      await redis.connect();
      for (let i = 0; i < 100; i++) {
        const [, subscribers] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
        if (Number(subscribers) >= 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    afterAll(async () => {
      redis.disconnect();
      await other?.stop();
      await h?.close();
    });

    it('a notice raised in one instance reaches the socket held by another, and the raiser’s own once', async () => {
      const s = await h.signUp();
      const userId = await userIdOf(h, s.email);
      const far = connect(other.url, withToken(s.token));
      const near = connect(h.server.url, withToken(s.token));
      await Promise.all([far.opened, near.opened]);
      await new Promise((r) => setTimeout(r, 100));
      const [row] = await raise(h.server, userId, 'api_service_is_paused');
      const [frame] = await far.frameCount(1);
      expect(frame!.params.body).toMatchObject({ id: row!.id, type: 'api_service_is_paused' });
      await near.frameCount(1);
      await new Promise((r) => setTimeout(r, 200));
      expect(near.frames).toHaveLength(1);
      expect(far.frames).toHaveLength(1);

      // Logout on one instance closes the session's socket on the other at once.
      await h.call('hub_logout', {}, { token: s.token });
      expect((await within(far.closed, 1000)).code).toBe(NOTICE_SOCKET_CLOSE.SESSION_ENDED);
      expect((await within(near.closed, 1000)).code).toBe(NOTICE_SOCKET_CLOSE.SESSION_ENDED);
    });
  },
);
