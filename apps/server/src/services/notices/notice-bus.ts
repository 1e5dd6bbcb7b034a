/**
 * The realtime seam for notices. raiseNotice stores; the bus delivers stored notices to every open socket of
 * each recipient, and ends the sockets of ended sessions. In-process in the embedded default; over Redis
 * pub/sub in scale mode, where each process delivers to its own sockets and ignores its own publications.
 */
import { randomUUID } from 'node:crypto';
import type { TNotice } from '@rpc/contract';
import type { TNoticeRow } from '@rpc/db';
import { Redis } from 'ioredis';
import type { TLogger } from '../../lib/logger';
import { toNotice } from './to-notice';

export type TNoticeBus = {
  /** Delivers stored (committed) notices. Never throws, never waits. */
  push: (notices: TNoticeRow[]) => void;
  /** These sessions ended (logout, password change): their sockets close now, wherever they are. */
  endSessions: (sessionIds: string[]) => void;
  close?: () => Promise<void>;
};

/** What a bus delivers to: this process's open sockets. */
export type TAddressedNotice = { userId: string; notice: TNotice };

export type TNoticeSink = {
  deliver: (notices: TAddressedNotice[]) => void;
  endSessions: (sessionIds: string[]) => void;
};

export function createNoopNoticeBus(): TNoticeBus {
  return { push: () => {}, endSessions: () => {} };
}

export function createLocalNoticeBus(sink: TNoticeSink): TNoticeBus {
  return {
    push: (rows) => {
      if (rows.length > 0) sink.deliver(rows.map(address));
    },
    endSessions: (ids) => {
      if (ids.length > 0) sink.endSessions(ids);
    },
  };
}

function address(row: TNoticeRow): TAddressedNotice {
  return { userId: row.userId, notice: toNotice(row) };
}

export const DEFAULT_NOTICE_CHANNEL = 'rpc:notices';

type TBusMessage =
  | { origin: string; kind: 'notices'; notices: TAddressedNotice[] }
  | { origin: string; kind: 'sessions'; ids: string[] };

/**
 * Local delivery first (no round trip for the common case of a user on the same instance), then one publish;
 * every other instance delivers to its own sockets. A publish that fails is logged: sockets elsewhere miss the
 * push, the notice itself is stored and shows on the client's next list load.
 */
export function createRedisNoticeBus(o: {
  url: string;
  sink: TNoticeSink;
  logger: TLogger;
  channel?: string;
}): TNoticeBus & { start: () => Promise<void>; close: () => Promise<void> } {
  const channel = o.channel ?? DEFAULT_NOTICE_CHANNEL;
  const origin = randomUUID();
  const pub = new Redis(o.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(o.url, { lazyConnect: true });
  // ioredis reconnects by itself; without these listeners a lost connection is an unhandled 'error' event.
  pub.on('error', (err: unknown) => o.logger.warn({ err }, 'notice bus: Redis publisher error'));
  sub.on('error', (err: unknown) => o.logger.warn({ err }, 'notice bus: Redis subscriber error'));
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let msg: TBusMessage;
    try {
      msg = JSON.parse(text) as TBusMessage;
    } catch {
      return;
    }
    if (msg.origin === origin) return; // delivered locally when it was pushed
    if (msg.kind === 'notices') o.sink.deliver(msg.notices);
    else if (msg.kind === 'sessions') o.sink.endSessions(msg.ids);
  });
  const publish = (msg: TBusMessage) => {
    pub
      .publish(channel, JSON.stringify(msg))
      .catch((err: unknown) => o.logger.error({ err }, 'notice bus: publish failed'));
  };
  return {
    start: async () => {
      await Promise.all([pub.connect(), sub.connect()]);
      await sub.subscribe(channel);
    },
    push: (rows) => {
      if (rows.length === 0) return;
      const notices = rows.map(address);
      o.sink.deliver(notices);
      publish({ origin, kind: 'notices', notices });
    },
    endSessions: (ids) => {
      if (ids.length === 0) return;
      o.sink.endSessions(ids);
      publish({ origin, kind: 'sessions', ids });
    },
    close: async () => {
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
