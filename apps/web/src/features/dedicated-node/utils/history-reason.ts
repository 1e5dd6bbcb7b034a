/**
 * The server writes why a node changed status in English words (hub_getUserDnNodeView history.reason). The ones
 * it writes today have texts in both languages here; any other is shown as the server wrote it.
 */
import type { TFunction } from 'i18next';

const KNOWN_REASONS: Record<string, string> = {
  ordered: 'ordered',
  'provisioned and answering': 'answering',
  'term ended': 'termEnded',
  renewed: 'renewed',
  'renewed within the grace period: starting again': 'renewedInGrace',
  data_deleted: 'dataDeleted',
};

export function historyReasonText(t: TFunction<'dedicated-node'>, reason: string): string {
  const key = KNOWN_REASONS[reason];
  if (key) return t(`history.reason.${key}`);
  const expiresIn = /^expires in (\d+) days?$/.exec(reason);
  if (expiresIn) return t('history.reason.expiresIn', { count: Number(expiresIn[1]) });
  return reason;
}
