/**
 * The notice WebSocket (SPEC §4) at NOTICE_SOCKET_PATH: sign-in by `?authorization=<token>` (or `Bearer <token>`),
 * frames `{ params: { type: 'message', body: notice } }`, a ping heartbeat that also ends the sockets of ended
 * sessions, and close codes from the contract's NOTICE_SOCKET_CLOSE.
 */
import websocket from '@fastify/websocket';
import {
  ERROR_CODES,
  NOTICE_SOCKET_CLOSE,
  NOTICE_SOCKET_PATH,
  type TNoticeFrame,
} from '@rpc/contract';
import { sessions, type TDatabase } from '@rpc/db';
import type { FastifyInstance } from 'fastify';
import { and, inArray, isNull, gt } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { resolveAuth } from '../auth/resolve-auth';
import type { TClock } from '../lib/clock';
import type { TLogger } from '../lib/logger';
import { RpcError } from '../rpc/errors';
import type { TNoticeSink } from '../services/notices/notice-bus';

export const DEFAULT_HEARTBEAT_MS = 30_000;

type TEntry = { userId: string; sessionId: string; isAlive: boolean };

export type TNoticeSockets = TNoticeSink & {
  /** open sockets on this process */
  readonly size: number;
  closeAll: (code: number, reason: string) => void;
  /** One heartbeat round now (tests; the timer calls it every heartbeatMs). */
  beat: () => Promise<void>;
  stop: () => void;
};

export function createNoticeSockets(o: {
  db: TDatabase;
  clock: TClock;
  logger: TLogger;
  heartbeatMs?: number;
}): TNoticeSockets & { add: (ws: WebSocket, who: { userId: string; sessionId: string }) => void } {
  const sockets = new Map<WebSocket, TEntry>();
  const byUser = new Map<string, Set<WebSocket>>();

  const remove = (ws: WebSocket) => {
    const entry = sockets.get(ws);
    if (!entry) return;
    sockets.delete(ws);
    const set = byUser.get(entry.userId);
    set?.delete(ws);
    if (set?.size === 0) byUser.delete(entry.userId);
  };

  const closeWhere = (match: (e: TEntry) => boolean, code: number, reason: string) => {
    for (const [ws, entry] of [...sockets]) {
      if (!match(entry)) continue;
      remove(ws);
      ws.close(code, reason);
    }
  };

  const beat = async () => {
    for (const [ws, entry] of [...sockets]) {
      if (!entry.isAlive) {
        // No pong since the last round: the peer is gone without a close.
        remove(ws);
        ws.terminate();
        continue;
      }
      entry.isAlive = false;
      ws.ping();
    }
    // Sessions revoked or expired while their socket was open (ended elsewhere, or in another process
    // whose bus message we missed).
    const ids = [...new Set([...sockets.values()].map((e) => e.sessionId))];
    if (ids.length === 0) return;
    const live = await o.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        and(
          inArray(sessions.id, ids),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date(o.clock.now())),
        ),
      );
    const alive = new Set(live.map((s) => s.id));
    closeWhere((e) => !alive.has(e.sessionId), NOTICE_SOCKET_CLOSE.SESSION_ENDED, 'session ended');
  };

  const timer = setInterval(() => {
    beat().catch((err: unknown) => o.logger.warn({ err }, 'notice socket heartbeat failed'));
  }, o.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  timer.unref();

  return {
    get size() {
      return sockets.size;
    },
    add: (ws, who) => {
      sockets.set(ws, { ...who, isAlive: true });
      let set = byUser.get(who.userId);
      if (!set) byUser.set(who.userId, (set = new Set()));
      set.add(ws);
      ws.on('pong', () => {
        const entry = sockets.get(ws);
        if (entry) entry.isAlive = true;
      });
      ws.on('close', () => remove(ws));
      // Errors are only logged (SPEC §4); the close that follows removes the socket.
      ws.on('error', (err) => o.logger.debug({ err }, 'notice socket error'));
    },
    deliver: (notices) => {
      for (const { userId, notice } of notices) {
        const set = byUser.get(userId);
        if (!set) continue;
        const frame: TNoticeFrame = { params: { type: 'message', body: notice } };
        const text = JSON.stringify(frame);
        for (const ws of set) if (ws.readyState === ws.OPEN) ws.send(text);
      }
    },
    endSessions: (ids) => {
      const ended = new Set(ids);
      closeWhere((e) => ended.has(e.sessionId), NOTICE_SOCKET_CLOSE.SESSION_ENDED, 'session ended');
    },
    closeAll: (code, reason) => closeWhere(() => true, code, reason),
    beat,
    stop: () => clearInterval(timer),
  };
}

/** `Bearer <token>` or the bare token. */
function tokenOf(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return value.replace(/^Bearer\s+/i, '');
}

const UNAUTHORIZED_REASON: Record<number, string> = {
  [ERROR_CODES.SESSION_MISSING]: 'missing or unknown token',
  [ERROR_CODES.SESSION_EXPIRED]: 'session expired',
  [ERROR_CODES.SESSION_REVOKED]: 'session ended',
};

export async function registerNoticeSocket(
  app: FastifyInstance,
  o: {
    db: TDatabase;
    clock: TClock;
    sockets: ReturnType<typeof createNoticeSockets>;
  },
): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: 4096 },
    // Our own pre-close: tell clients to come back later (1001), then stop accepting.
    preClose(done) {
      o.sockets.stop();
      o.sockets.closeAll(NOTICE_SOCKET_CLOSE.GOING_AWAY, 'server shutting down');
      for (const client of app.websocketServer.clients)
        client.close(NOTICE_SOCKET_CLOSE.GOING_AWAY);
      app.websocketServer.close(() => done());
    },
  });
  app.get(NOTICE_SOCKET_PATH, { websocket: true }, (socket, request) => {
    const query = request.query as Record<string, unknown>;
    const token = tokenOf(query.authorization) ?? tokenOf(request.headers.authorization);
    // The client sends nothing we act on; the socket is one-way.
    socket.on('error', (err) => request.log.debug({ err }, 'notice socket error'));
    resolveAuth({ db: o.db, clock: o.clock, token, teamId: null })
      .then((auth) => {
        if (socket.readyState !== socket.OPEN) return;
        o.sockets.add(socket, { userId: auth.userId, sessionId: auth.sessionId });
      })
      .catch((err: unknown) => {
        const code = err instanceof RpcError ? err.code : undefined;
        if (code === undefined) request.log.error({ err }, 'notice socket: sign-in failed');
        socket.close(
          code === undefined ? 1011 : NOTICE_SOCKET_CLOSE.UNAUTHORIZED,
          code === undefined ? 'server error' : (UNAUTHORIZED_REASON[code] ?? 'unauthorized'),
        );
      });
  });
}
