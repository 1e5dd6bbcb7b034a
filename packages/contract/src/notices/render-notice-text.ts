/**
 * What a notice says (SPEC §3, §8), for the web app and the notice mails alike: the per-type wording of
 * texts/<lang>.ts filled in from the notice's `expand`, or the server's own text where SPEC §8 says so.
 */
import type { TLanguage, TNoticeType } from '../constants';
import { LANGUAGE_TAGS, NOTICE_CUTOFF_MS } from '../constants';

const SERVER_TEXT_TYPE_LIST = [
  'normal_success',
  'normal_warn',
  'normal_fail',
  'activity_gift',
] as const satisfies readonly TNoticeType[];

/** SPEC §8: these types always show the server's own title and content. */
export const SERVER_TEXT_TYPES: ReadonlySet<TNoticeType> = new Set(SERVER_TEXT_TYPE_LIST);

/** The types with wording of their own: every type but the server-text ones. */
export type TWordedNoticeType = Exclude<TNoticeType, (typeof SERVER_TEXT_TYPE_LIST)[number]>;

/** A type's wording; `content_one` / `content_other` (i18next's plural keys) where it counts days. */
export type TNoticeTypeText =
  | { title: string; content: string }
  | { title: string; content_one: string; content_other: string };

/** One language's notice wording. `{{name}}` takes a parameter of renderNoticeText. */
export type TNoticeTexts = {
  types: Record<TWordedNoticeType, TNoticeTypeText>;
  /** API key features by `expand.featureName` (apikey_feature_update) */
  features: Record<string, string>;
  featureState: Record<'on' | 'off', string>;
  /** what a file_download export holds, by `expand.type` */
  exportKind: Record<'deposit' | 'purchase' | 'generic', string>;
};

/** The notice fields the wording depends on. */
export type TNoticeTextSource = {
  type: string;
  title: string;
  content: string;
  createdAt: number;
  expand: Record<string, unknown>;
};

/** SPEC §8: notices from before the cutoff, and the server-text types, keep the server's wording. */
export function usesServerText(notice: Pick<TNoticeTextSource, 'type' | 'createdAt'>): boolean {
  return notice.createdAt < NOTICE_CUTOFF_MS || SERVER_TEXT_TYPES.has(notice.type as TNoticeType);
}

const PLACEHOLDER = '-';

function formatAmount(value: unknown, lang: TLanguage): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return new Intl.NumberFormat(LANGUAGE_TAGS[lang], { maximumFractionDigits: 8 }).format(value);
  }
  if (typeof value === 'string' && value.trim()) {
    const n = Number(value);
    // Strings keep their own digits (a coin amount may carry more precision than a float).
    return Number.isFinite(n) && /^-?\d+$/.test(value.trim())
      ? new Intl.NumberFormat(LANGUAGE_TAGS[lang]).format(n)
      : value;
  }
  return PLACEHOLDER;
}

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() ? value : PLACEHOLDER;
}

/** `record[key]` when it is the record's own string (never `constructor` or another inherited member). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The values every template may use, each with a dash when missing or of the wrong kind. */
function templateParams(
  expand: Record<string, unknown>,
  o: TRenderNoticeTextOptions,
): Record<string, string> {
  const { texts, lang } = o;
  const feature = typeof expand.featureName === 'string' ? expand.featureName : '';
  const state = expand.type === 'on' || expand.type === 'off' ? expand.type : undefined;
  const exportKind =
    expand.type === 'deposit' || expand.type === 'purchase' ? expand.type : 'generic';
  const time = expand.timeStamp;
  return {
    coinAmount: formatAmount(expand.coinAmount, lang),
    coin: text(expand.coin),
    usdAmount: formatAmount(expand.usdAmount, lang),
    amount: formatAmount(expand.amount, lang),
    skuName: text(expand.skuName),
    // expand.timeStamp is epoch ms, like every time the API sends.
    time: typeof time === 'number' && Number.isFinite(time) ? o.formatDateTime(time) : PLACEHOLDER,
    count: String(dayCount(expand)),
    name: text(expand.name),
    featureName: feature ? (own(texts.features, feature) ?? feature) : PLACEHOLDER,
    state: state ? texts.featureState[state] : PLACEHOLDER,
    apikeyName: text(expand.apikeyName),
    userName: text(expand.userName),
    teamName: text(expand.teamName),
    exportKind: texts.exportKind[exportKind],
  };
}

function dayCount(expand: Record<string, unknown>): number {
  return typeof expand.leftDays === 'number' && Number.isFinite(expand.leftDays)
    ? expand.leftDays
    : 0;
}

/** `{{name}}` -> params[name], in one pass: a value is never read as a template itself. */
function interpolate(template: string, params: Record<string, string>): string {
  return template.replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    (_, name: string) => own(params, name) ?? PLACEHOLDER,
  );
}

export type TRenderNoticeTextOptions = {
  lang: TLanguage;
  /** the wording in `lang` (texts/<lang>.ts) */
  texts: TNoticeTexts;
  /** how `expand.timeStamp` reads: the web app's local time, a mail's stated zone */
  formatDateTime: (ms: number) => string;
};

/** Title and content of a notice in `o.lang` (SPEC §3, §8). */
export function renderNoticeText(
  notice: TNoticeTextSource,
  o: TRenderNoticeTextOptions,
): { title: string; content: string } {
  const wording = usesServerText(notice) ? undefined : own(o.texts.types, notice.type);
  if (!wording) return { title: notice.title, content: notice.content };
  const expand: Record<string, unknown> =
    notice.expand && typeof notice.expand === 'object' ? notice.expand : {};
  const params = templateParams(expand, o);
  const content =
    'content' in wording
      ? wording.content
      : new Intl.PluralRules(LANGUAGE_TAGS[o.lang]).select(dayCount(expand)) === 'one'
        ? wording.content_one
        : wording.content_other;
  return { title: interpolate(wording.title, params), content: interpolate(content, params) };
}
