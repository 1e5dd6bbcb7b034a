/**
 * Stores a batch of page/action events against the acting account only: no user id, IP, user agent or free
 * text reaches the table (the contract already refused query strings, unknown fields and long or odd values).
 */
import {
  TRACKING_MAX_AGE_MS,
  TRACKING_MAX_SKEW_MS,
  type TResult,
  type TTrackingEvent,
} from '@rpc/contract';
import { trackingEvents } from '@rpc/db';
import type { TDeps } from '../../rpc/context';
import { SupportError, type TSupportCaller } from './support-error';

export async function saveEventTracking(o: {
  deps: Pick<TDeps, 'db' | 'clock' | 'throttle'>;
  caller: TSupportCaller & { ip: string };
  events: TTrackingEvent[];
}): Promise<TResult<'hub_saveEventTracking'>> {
  const { deps } = o;
  await deps.throttle.enforce({
    action: 'eventTracking',
    email: `user:${o.caller.userId}`,
    ip: o.caller.ip,
    limitType: 'type1',
  });
  const now = deps.clock.now();
  // All or nothing: a batch with one impossible time is a broken client, not something to keep half of.
  const bad = o.events.findIndex(
    (e) => e.at > now + TRACKING_MAX_SKEW_MS || e.at < now - TRACKING_MAX_AGE_MS,
  );
  if (bad !== -1)
    throw new SupportError('event_time', [
      { path: `events.${bad}.at`, message: 'more than a day old or more than a minute ahead' },
    ]);
  if (o.events.length > 0) {
    await deps.db.insert(trackingEvents).values(
      o.events.map((e) => ({
        accountId: o.caller.account.id,
        page: e.page,
        action: e.action,
        at: new Date(e.at),
        receivedAt: new Date(now),
      })),
    );
  }
  return { success: true, saved: o.events.length };
}
