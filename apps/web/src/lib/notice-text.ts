/**
 * What a notice says (SPEC §3, §8): one table of icon and severity per type, and renderNotice(), which
 * builds the localised title and content from the notice's expand parameters with the contract's wording
 * (renderNoticeText, shared with the server's notice mails; lib/i18n.ts loads it with the `notices` texts).
 */
import type { TLanguage, TNotice, TNoticeTexts, TNoticeType } from '@rpc/contract';
import { renderNoticeText } from '@rpc/contract';
import { formatDateTime } from './format-date-time';
import { DEFAULT_LANG, i18n } from './i18n';

export type TNoticeSeverity = 'success' | 'warn' | 'error';
export type TNoticeIcon =
  | 'wallet'
  | 'clock'
  | 'thunderbolt'
  | 'sync'
  | 'hourglass'
  | 'gift'
  | 'download'
  | 'rocket'
  | 'pause'
  | 'check'
  | 'exclamation'
  | 'close'
  | 'crown'
  | 'shopping'
  | 'credit-card'
  | 'user-delete'
  | 'user-add'
  | 'team'
  | 'key'
  | 'delete';

/** SPEC §3: every notice type with its icon and severity. */
export const NOTICE_TYPE_META: Record<
  TNoticeType,
  { icon: TNoticeIcon; severity: TNoticeSeverity }
> = {
  deposit: { icon: 'wallet', severity: 'success' },
  expired: { icon: 'clock', severity: 'error' },
  low_balance: { icon: 'wallet', severity: 'warn' },
  low_ru: { icon: 'thunderbolt', severity: 'warn' },
  auto_renew_success: { icon: 'sync', severity: 'success' },
  auto_renew_off: { icon: 'sync', severity: 'warn' },
  ru_pkg_running_out: { icon: 'hourglass', severity: 'warn' },
  register_gift: { icon: 'gift', severity: 'success' },
  monthly_gift: { icon: 'gift', severity: 'success' },
  activity_gift: { icon: 'gift', severity: 'success' },
  file_download: { icon: 'download', severity: 'success' },
  init_by_and_auto_scaling: { icon: 'rocket', severity: 'success' },
  init_only_by: { icon: 'rocket', severity: 'success' },
  api_service_is_paused: { icon: 'pause', severity: 'error' },
  auto_scaling_failed: { icon: 'exclamation', severity: 'error' },
  free_auto_scaling_failed: { icon: 'exclamation', severity: 'error' },
  normal_success: { icon: 'check', severity: 'success' },
  normal_warn: { icon: 'exclamation', severity: 'warn' },
  normal_fail: { icon: 'close', severity: 'error' },
  message_enterprise_package_send: { icon: 'crown', severity: 'success' },
  buy_package: { icon: 'shopping', severity: 'success' },
  credit_package_sent: { icon: 'gift', severity: 'success' },
  team_remove_member: { icon: 'user-delete', severity: 'warn' },
  team_approve_invite: { icon: 'user-add', severity: 'success' },
  team_disband: { icon: 'team', severity: 'error' },
  apikey_feature_update: { icon: 'key', severity: 'success' },
  apikey_delete: { icon: 'delete', severity: 'warn' },
  team_member_leave: { icon: 'user-delete', severity: 'warn' },
  card_auto_scaling_failed: { icon: 'credit-card', severity: 'error' },
  free_card_auto_scaling_failed: { icon: 'credit-card', severity: 'error' },
};

export type TRenderedNotice = {
  title: string;
  content: string;
  severity: TNoticeSeverity;
  icon: TNoticeIcon;
};

/** Title, content, severity and icon of a notice in `lang` (SPEC §3, §8). */
export function renderNotice(notice: TNotice, lang: TLanguage): TRenderedNotice {
  const meta = NOTICE_TYPE_META[notice.type];
  // English when `lang` has not loaded (i18next's fallback), the server's text when neither has.
  const texts = (i18n.getResourceBundle(lang, 'notices') ??
    i18n.getResourceBundle(DEFAULT_LANG, 'notices')) as TNoticeTexts | undefined;
  const { title, content } = texts?.types
    ? renderNoticeText(notice, { lang, texts, formatDateTime })
    : notice;
  return { title, content, ...meta };
}
