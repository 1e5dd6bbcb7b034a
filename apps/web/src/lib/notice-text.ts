/**
 * What a notice says (SPEC §3, §8): one table of icon and severity per type, and renderNotice(), which
 * builds the localised title and content from the notice's expand parameters.
 */
import type { TLanguage, TNotice, TNoticeType } from '@rpc/contract';
import { NOTICE_CUTOFF_MS } from '@rpc/contract';
import { formatDateTime } from './format-date-time';
import { LANG_TAG, i18n } from './i18n';

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

/** SPEC §8: these types always show the server's own title and content. */
export const SERVER_TEXT_TYPES: ReadonlySet<TNoticeType> = new Set<TNoticeType>([
  'normal_success',
  'normal_warn',
  'normal_fail',
  'activity_gift',
]);

export type TRenderedNotice = {
  title: string;
  content: string;
  severity: TNoticeSeverity;
  icon: TNoticeIcon;
};

/** SPEC §8: notices from before the cutoff, and the server-text types, keep the server's wording. */
export function usesServerText(notice: Pick<TNotice, 'type' | 'createdAt'>): boolean {
  return notice.createdAt < NOTICE_CUTOFF_MS || SERVER_TEXT_TYPES.has(notice.type);
}

const PLACEHOLDER = '-';

function formatAmount(value: unknown, lang: TLanguage): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return new Intl.NumberFormat(LANG_TAG[lang], { maximumFractionDigits: 8 }).format(value);
  }
  if (typeof value === 'string' && value.trim()) {
    const n = Number(value);
    // Strings keep their own digits (a coin amount may carry more precision than a float).
    return Number.isFinite(n) && /^-?\d+$/.test(value.trim())
      ? new Intl.NumberFormat(LANG_TAG[lang]).format(n)
      : value;
  }
  return PLACEHOLDER;
}

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() ? value : PLACEHOLDER;
}

/** The interpolation values every template may use, each with a dash when missing. */
function templateParams(notice: TNotice, lang: TLanguage): Record<string, unknown> {
  const t = i18n.getFixedT(lang, 'notices');
  const e = notice.expand;
  const feature = typeof e.featureName === 'string' ? e.featureName : '';
  const featureKey = `features.${feature}`;
  const state = e.type === 'on' || e.type === 'off' ? t(`featureState.${e.type}`) : PLACEHOLDER;
  const exportKind = e.type === 'deposit' || e.type === 'purchase' ? e.type : 'generic';
  return {
    coinAmount: formatAmount(e.coinAmount, lang),
    coin: text(e.coin),
    usdAmount: formatAmount(e.usdAmount, lang),
    amount: formatAmount(e.amount, lang),
    skuName: text(e.skuName),
    // expand.timeStamp is epoch ms, like every time the API sends.
    time: typeof e.timeStamp === 'number' ? formatDateTime(e.timeStamp) : PLACEHOLDER,
    count: typeof e.leftDays === 'number' ? e.leftDays : 0,
    name: text(e.name),
    featureName: feature
      ? i18n.exists(featureKey, { ns: 'notices' })
        ? t(featureKey)
        : feature
      : PLACEHOLDER,
    state,
    apikeyName: text(e.apikeyName),
    userName: text(e.userName),
    teamName: text(e.teamName),
    exportKind: t(`exportKind.${exportKind}`),
  };
}

/** Title, content, severity and icon of a notice in `lang` (SPEC §3, §8). */
export function renderNotice(notice: TNotice, lang: TLanguage): TRenderedNotice {
  const meta = NOTICE_TYPE_META[notice.type];
  if (usesServerText(notice)) {
    return { title: notice.title, content: notice.content, ...meta };
  }
  const t = i18n.getFixedT(lang, 'notices');
  const params = templateParams(notice, lang);
  return {
    title: t(`types.${notice.type}.title`, params),
    content: t(`types.${notice.type}.content`, params),
    ...meta,
  };
}
