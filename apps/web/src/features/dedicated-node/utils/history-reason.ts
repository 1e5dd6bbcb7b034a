/**
 * Why a node's status changed, from the server's reason code (hub_getUserDnNodeView history.reason, the contract's
 * DN_EVENT_REASONS) to its text in the page's language. The Record makes a new code a type error until it is worded.
 */
import type { TDnEventReason } from '@rpc/contract';
import { DN_WILL_EXPIRE_DAYS } from '@rpc/contract';
import type { TFunction } from 'i18next';

/** Each code's key under history.reason in locales/{en,zh}/dedicated-node.json. */
export const REASON_KEY: Record<TDnEventReason, string> = {
  ordered: 'ordered',
  answering: 'answering',
  expires_soon: 'expiresSoon',
  term_ended: 'termEnded',
  renewed: 'renewed',
  renewed_in_grace: 'renewedInGrace',
  data_deleted: 'dataDeleted',
  restarted: 'restarted',
  stopped_by_operator: 'stoppedByOperator',
  started_by_operator: 'startedByOperator',
};

export function historyReasonText(t: TFunction<'dedicated-node'>, reason: TDnEventReason): string {
  // expires_soon is raised DN_WILL_EXPIRE_DAYS before the expiry; the text says how long that is.
  return t(`history.reason.${REASON_KEY[reason]}`, { count: DN_WILL_EXPIRE_DAYS });
}
