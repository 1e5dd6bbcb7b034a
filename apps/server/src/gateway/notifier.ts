/** Turns gateway events into stored notices: api_service_is_paused (hourly at most) and low_ru (daily at most). */
import type { TDatabase } from '@rpc/db';
import type { TNotifier } from '@rpc/gateway';
import type { TLogger } from '../lib/logger';
import type { TNoticeBus } from '../services/notices/notice-bus';
import { raiseNotice } from '../services/notices/raise-notice';

export const PAUSED_NOTICE_EVERY_MS = 60 * 60_000;
export const LOW_RU_NOTICE_EVERY_MS = 24 * 60 * 60_000;

export type TGatewayNotifier = {
  /** For startGateway's `notify`. */
  notify: TNotifier;
  /** For DbAccountBalance's low-balance callback. */
  onLowRu: (accountId: string, balance: number) => void;
  /** Resolves when every notice started so far is stored (tests, shutdown). */
  settle: () => Promise<void>;
};

export function createGatewayNotifier(o: {
  db: TDatabase;
  bus: TNoticeBus;
  logger: TLogger;
  now?: () => number;
}): TGatewayNotifier {
  const now = o.now ?? Date.now;
  const inFlight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    const tracked = p
      .catch((err: unknown) => o.logger.error({ err }, 'gateway notice failed'))
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  return {
    notify: (event) => {
      track(
        raiseNotice({
          db: o.db,
          bus: o.bus,
          at: now(),
          type: 'api_service_is_paused',
          accountId: event.accountId,
          // The gateway throttles per process; this makes it once per account per hour across processes.
          dedupeMs: PAUSED_NOTICE_EVERY_MS,
          title: 'API service paused',
          content:
            'Your account has no RU left, so requests with its API keys are refused. Add RUs to resume.',
          expand: { name: event.chain },
        }),
      );
    },
    onLowRu: (accountId, balance) => {
      track(
        raiseNotice({
          db: o.db,
          bus: o.bus,
          at: now(),
          type: 'low_ru',
          accountId,
          dedupeMs: LOW_RU_NOTICE_EVERY_MS,
          title: 'RU balance is low',
          content: `Your account has ${Math.max(0, balance).toLocaleString('en-US')} RU left.`,
          expand: { amount: Math.max(0, balance) },
        }),
      );
    },
    settle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
