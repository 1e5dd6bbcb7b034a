/** URL locale prefix (/zh) helpers: every internal link and navigation goes through these. */
import type { TLanguage } from '@rpc/contract';
import { createElement, forwardRef, useCallback } from 'react';
import type { NavigateOptions, LinkProps } from 'react-router';
import { Link, useLocation, useNavigate } from 'react-router';
import { checkNavigationTarget } from './guard';

export const ZH_PREFIX = '/zh';

/** Hosts outside the console the app may send the browser to (SPEC §2), from VITE_EXTERNAL_HOSTS. */
export const EXTERNAL_ALLOWED_HOSTS: readonly string[] = (import.meta.env.VITE_EXTERNAL_HOSTS ?? '')
  .split(',')
  .map((host) => host.trim().toLowerCase())
  .filter(Boolean);

/** The language a path is in: /zh and /zh/... are Chinese, everything else English. */
export function langFromPath(pathname: string): TLanguage {
  return pathname === ZH_PREFIX || pathname.startsWith(`${ZH_PREFIX}/`) ? 'zh' : 'en';
}

/** The path without its locale prefix; '/zh' becomes '/'. Keeps query and hash. */
export function stripLocale(path: string): string {
  if (path === ZH_PREFIX) return '/';
  if (path.startsWith(`${ZH_PREFIX}/`)) return path.slice(ZH_PREFIX.length);
  if (path.startsWith(`${ZH_PREFIX}?`) || path.startsWith(`${ZH_PREFIX}#`)) {
    return `/${path.slice(ZH_PREFIX.length)}`;
  }
  return path;
}

/** The same page in `lang`: '/rpc/endpoint' -> '/zh/rpc/endpoint' for zh, and back for en. */
export function localePath(path: string, lang: TLanguage): string {
  const bare = stripLocale(path.startsWith('/') ? path : `/${path}`);
  if (lang === 'en') return bare;
  if (bare === '/') return ZH_PREFIX;
  if (bare.startsWith('/?') || bare.startsWith('/#')) return `${ZH_PREFIX}${bare.slice(1)}`;
  return `${ZH_PREFIX}${bare}`;
}

/** The language of the current URL. */
export function useRouteLang(): TLanguage {
  return langFromPath(useLocation().pathname);
}

export type TLocalizedNavigate = (to: string, options?: NavigateOptions) => void;

/**
 * navigate() that keeps the current locale prefix. Absolute URLs are checked first: other origins
 * are refused unless allow-listed, dangerous protocols always (SPEC §2).
 */
export function useLocalizedNavigate(): TLocalizedNavigate {
  const navigate = useNavigate();
  const lang = useRouteLang();
  return useCallback(
    (to, options) => {
      const check = checkNavigationTarget(to, {
        origin: window.location.origin,
        allowedHosts: EXTERNAL_ALLOWED_HOSTS,
      });
      if (check.kind === 'refuse') {
        console.warn(`Navigation refused (${check.reason}): ${to}`);
        return;
      }
      if (check.kind === 'external') {
        window.location.assign(check.href);
        return;
      }
      void navigate(localePath(check.path, lang), options);
    },
    [navigate, lang],
  );
}

export type TLocalizedLinkProps = Omit<LinkProps, 'to'> & { to: string };

/** react-router's Link for internal paths, with the current locale prefix added. */
export const LocalizedLink = forwardRef<HTMLAnchorElement, TLocalizedLinkProps>(
  function LocalizedLink({ to, ...rest }, ref) {
    const lang = useRouteLang();
    return createElement(Link, { ...rest, ref, to: localePath(to, lang) });
  },
);
