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

/**
 * SPEC §8: these types always show the server's own title and content (in the reader's language where the server
 * took them from the catalogue: SERVER_NOTICE_KEYS).
 */
export const SERVER_TEXT_TYPES: ReadonlySet<TNoticeType> = new Set(SERVER_TEXT_TYPE_LIST);

/** The types with wording of their own: every type but the server-text ones. */
export type TWordedNoticeType = Exclude<TNoticeType, (typeof SERVER_TEXT_TYPE_LIST)[number]>;

/**
 * Server-text notices whose wording is catalogued here too, named by `expand.textKey`: the server writes its own
 * title and content from the English wording (renderServerNoticeText), and readers get the same text in their
 * language. A notice with no key, or one this build does not know, keeps the stored text.
 */
export const SERVER_NOTICE_KEYS = [
  /** a team's wallet moved to the owner's personal wallet when disbanded */
  'team_balance_moved',
  /** money that reached a team after it was disbanded, moved to the former owner's personal wallet */
  'team_late_credit_moved',
  /** a disbanded team's last usage, billed after it was disbanded, charged to the former owner's personal wallet */
  'team_late_usage_charged',
] as const;
export type TServerNoticeKey = (typeof SERVER_NOTICE_KEYS)[number];

/** A type's wording; `content_one` / `content_other` (i18next's plural keys) where it counts days. */
export type TNoticeTypeText =
  | { title: string; content: string }
  | { title: string; content_one: string; content_other: string };

/** One language's notice wording. `{{name}}` takes a parameter of renderNoticeText. */
export type TNoticeTexts = {
  types: Record<TWordedNoticeType, TNoticeTypeText>;
  /** server-text notices by `expand.textKey` (SERVER_NOTICE_KEYS) */
  serverTexts: Record<TServerNoticeKey, { title: string; content: string }>;
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

/**
 * The catalogued wording of a server-text notice in `o.lang`, filled in from `expand`: what the server stores as
 * the notice's own title and content (in English), and what readers see in theirs.
 */
export function renderServerNoticeText(
  key: TServerNoticeKey,
  expand: Record<string, unknown>,
  o: TRenderNoticeTextOptions,
): { title: string; content: string } {
  const wording = o.texts.serverTexts[key];
  const params = templateParams(expand, o);
  return {
    title: interpolate(wording.title, params),
    content: interpolate(wording.content, params),
  };
}

/** A server-text notice's catalogued key, when it names one (never before the cutoff: those keep their text). */
function serverNoticeKey(
  notice: TNoticeTextSource,
  expand: Record<string, unknown>,
  texts: TNoticeTexts,
): TServerNoticeKey | undefined {
  if (notice.createdAt < NOTICE_CUTOFF_MS || !SERVER_TEXT_TYPES.has(notice.type as TNoticeType))
    return undefined;
  const key = expand.textKey;
  // The web app passes its i18next bundle cast to TNoticeTexts, unchecked: no `serverTexts` means no key.
  const catalogued: Record<string, unknown> = texts.serverTexts ?? {};
  return typeof key === 'string' && Object.hasOwn(catalogued, key)
    ? (key as TServerNoticeKey)
    : undefined;
}

/** Title and content of a notice in `o.lang` (SPEC §3, §8). */
export function renderNoticeText(
  notice: TNoticeTextSource,
  o: TRenderNoticeTextOptions,
): { title: string; content: string } {
  const expand: Record<string, unknown> =
    notice.expand && typeof notice.expand === 'object' ? notice.expand : {};
  const serverKey = serverNoticeKey(notice, expand, o.texts);
  if (serverKey) return renderServerNoticeText(serverKey, expand, o);
  const wording = usesServerText(notice) ? undefined : own(o.texts.types, notice.type);
  if (!wording) return { title: notice.title, content: notice.content };
  const params = templateParams(expand, o);
  const content =
    'content' in wording
      ? wording.content
      : new Intl.PluralRules(LANGUAGE_TAGS[o.lang]).select(dayCount(expand)) === 'one'
        ? wording.content_one
        : wording.content_other;
  return { title: interpolate(wording.title, params), content: interpolate(content, params) };
}
