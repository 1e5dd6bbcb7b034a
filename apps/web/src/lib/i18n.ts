/**
 * i18next for English and Chinese. Every src/locales/{en,zh}/<namespace>.json is registered automatically, so a
 * feature adds its namespace by adding the two files. They load when first needed (the shell's namespaces before the
 * first render, a page's before it renders: app/routes/route-table.tsx), in chunks per language (lib/locale-chunks.ts),
 * so the sign-in page does not carry the console's text in both languages.
 */
import type { TLanguage } from '@rpc/contract';
import { LANGUAGES, LANGUAGE_TAGS } from '@rpc/contract';
import type { BackendModule } from 'i18next';
import i18next from 'i18next';
import Cookies from 'js-cookie';
import { useCallback } from 'react';
import { initReactI18next } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { langFromPath, localePath } from './locale-path';
import { COOKIE, COOKIE_DAYS } from './storage-keys';

export const DEFAULT_LANG: TLanguage = 'en';
export const DEFAULT_NS = 'common';

/** BCP 47 tags for <html lang> and Intl (SPEC §9: en-US, zh-CN). */
export const LANG_TAG: Record<TLanguage, string> = LANGUAGE_TAGS;

type TLocaleJson = { default: Record<string, unknown> };

const localeLoaders = import.meta.glob<TLocaleJson>('../locales/*/*.json');

/** '../locales/en/common.json' -> ['en', 'common']. */
function parseLocaleFile(file: string): [lang: string, ns: string] | undefined {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  return match ? [match[1]!, match[2]!] : undefined;
}

/** Every namespace that has a file. */
export const namespaces = [
  ...new Set(Object.keys(localeLoaders).flatMap((file) => parseLocaleFile(file)?.[1] ?? [])),
];

/**
 * Texts a namespace takes from the contract besides its own file: the notice wording, which the server's notice
 * mails use too (one copy). lib/locale-chunks.ts puts each language's module in that language's locale chunk.
 */
export const contractTextLoaders: Record<string, Record<TLanguage, () => Promise<object>>> = {
  notices: {
    en: () => import('@rpc/contract/notice-texts/en').then((m) => m.NOTICE_TEXTS_EN),
    zh: () => import('@rpc/contract/notice-texts/zh').then((m) => m.NOTICE_TEXTS_ZH),
  },
};

/** i18next backend over the locale chunks: a few lines instead of a dependency. */
const localeBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(lang, ns, callback) {
    const load = localeLoaders[`../locales/${lang}/${ns}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    const loadContract = isLanguage(lang) ? contractTextLoaders[ns]?.[lang] : undefined;
    Promise.all([load(), loadContract?.()]).then(
      ([json, contractTexts]) => callback(null, { ...json.default, ...contractTexts }),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** 'zh-CN', 'zh-Hant', 'zh' -> 'zh'; 'en-GB' -> 'en'; anything else -> undefined. */
export function normaliseLang(tag: string | undefined | null): TLanguage | undefined {
  if (!tag) return undefined;
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : undefined;
}

/** SPEC §4 app start: the route prefix wins, then the language cookie, then the browser, then English. */
export function detectLanguage(input: {
  pathname: string;
  cookie: string | undefined;
  browser: readonly string[];
}): { lang: TLanguage; source: 'route' | 'cookie' | 'browser' | 'default' } {
  if (langFromPath(input.pathname) === 'zh') return { lang: 'zh', source: 'route' };
  const fromCookie = normaliseLang(input.cookie);
  if (fromCookie) return { lang: fromCookie, source: 'cookie' };
  for (const tag of input.browser) {
    const lang = normaliseLang(tag);
    if (lang) return { lang, source: 'browser' };
  }
  return { lang: DEFAULT_LANG, source: 'default' };
}

export const i18n = i18next.createInstance();

/** initI18n's run, once started: a page's code may start loading before it (main.tsx), its text waits for it. */
let initializing: Promise<unknown> | undefined;

/**
 * Starts i18next in `lang` with `ns` loaded; unless told, every namespace in both languages (tests render any
 * screen, a notice in either language). The error texts are always loaded in both languages, since a transport
 * error carries both (lib/rpc-client.ts).
 */
export function initI18n(lang: TLanguage, ns?: readonly string[]): Promise<unknown> {
  // The other language's error texts are fetched beside the first language's, not after init.
  for (const other of LANGUAGES) {
    if (other !== lang) localeLoaders[`../locales/${other}/errors.json`]?.().catch(() => undefined);
  }
  initializing = i18n
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng: lang,
      fallbackLng: DEFAULT_LANG,
      supportedLngs: [...LANGUAGES],
      ns: [...(ns ?? namespaces)],
      ...(ns ? {} : { preload: [...LANGUAGES] }),
      defaultNS: DEFAULT_NS,
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
      // Pages load their namespaces before they render (loadNamespaces), so nothing suspends on text.
      react: { useSuspense: false },
    })
    .then(() => i18n.reloadResources([...LANGUAGES], ['errors']))
    .catch((error: unknown) => {
      // SPEC §8: a locale that fails to load is logged; the app goes on with what it has.
      console.error('Locale loading failed', error);
    });
  return initializing;
}

/**
 * Loads a page's namespaces in the current language (and English, the fallback) before the page renders; asked
 * before i18next is started, once it has started.
 */
export function loadNamespaces(ns: readonly string[]): Promise<void> {
  if (!initializing) return Promise.resolve();
  return initializing
    .then(() => i18n.loadNamespaces([...ns]))
    .catch((error: unknown) => {
      console.error('Locale loading failed', error);
    });
}

i18n.on('failedLoading', (lng: string, ns: string, msg: string) => {
  console.error(`Locale loading failed: ${lng}/${ns}: ${msg}`);
});

/** The language i18next currently renders in. */
export function currentLang(): TLanguage {
  return normaliseLang(i18n.language) ?? DEFAULT_LANG;
}

export function readLangCookie(): TLanguage | undefined {
  return normaliseLang(Cookies.get(COOKIE.lang));
}

export function writeLangCookie(lang: TLanguage): void {
  Cookies.set(COOKIE.lang, lang, { expires: COOKIE_DAYS.lang, sameSite: 'Lax', path: '/' });
}

// --- Language switch hooks (SPEC §4: switchable, with before and after hooks) ---

export type TLangSwitch = { from: TLanguage; to: TLanguage };
export type TLangSwitchHook = (change: TLangSwitch) => void | Promise<void>;

const beforeSwitchHooks = new Set<TLangSwitchHook>();
const afterSwitchHooks = new Set<TLangSwitchHook>();

/** Runs before the language changes; returns the unsubscribe function. */
export function onBeforeLanguageSwitch(hook: TLangSwitchHook): () => void {
  beforeSwitchHooks.add(hook);
  return () => beforeSwitchHooks.delete(hook);
}

/** Runs after the language has changed; returns the unsubscribe function. */
export function onAfterLanguageSwitch(hook: TLangSwitchHook): () => void {
  afterSwitchHooks.add(hook);
  return () => afterSwitchHooks.delete(hook);
}

async function runHooks(hooks: Set<TLangSwitchHook>, change: TLangSwitch): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook(change);
    } catch (error) {
      console.error('Language switch hook failed', error);
    }
  }
}

/**
 * What a language switch does besides the URL: cookie, i18next, and the server's copy of the user's
 * language (the server is told by a hook the session module registers, to keep this module free of it).
 */
export async function switchLanguage(opts: {
  from: TLanguage;
  to: TLanguage;
  /** current path with query and hash */
  path: string;
  navigateTo: (path: string) => void;
}): Promise<void> {
  const { from, to, path, navigateTo } = opts;
  if (from === to) return;
  await runHooks(beforeSwitchHooks, { from, to });
  writeLangCookie(to);
  navigateTo(localePath(path, to));
  await i18n.changeLanguage(to);
  await runHooks(afterSwitchHooks, { from, to });
}

export type TUseLocale = { lang: TLanguage; setLang: (lang: TLanguage) => Promise<void> };

/** The current language (from the URL) and a switch that keeps the user on the same page. */
export function useLocale(): TUseLocale {
  const location = useLocation();
  const navigate = useNavigate();
  const lang = langFromPath(location.pathname);
  const setLang = useCallback(
    (to: TLanguage) =>
      switchLanguage({
        from: lang,
        to,
        path: `${location.pathname}${location.search}${location.hash}`,
        navigateTo: (path) => void navigate(path, { replace: true }),
      }),
    [navigate, lang, location.pathname, location.search, location.hash],
  );
  return { lang, setLang };
}
