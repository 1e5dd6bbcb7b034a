/**
 * The root route: asks the guard about every navigation and applies its answer, then renders the
 * route's layout, keeps the title and <html lang> current, and scrolls as SPEC §2 says.
 */
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Location } from 'react-router';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { LazyErrorScreen } from '../../components/lazy-error-screen';
import '../../components/ui/ui.css';
import { DefaultLayout } from '../../components/layouts/default-layout';
import type { TGuardDecision, TGuardEffect, TScrollLocation } from '../../lib/guard';
import { decideNavigation, decideScroll, notFoundMessage } from '../../lib/guard';
import { LANG_TAG, i18n, loadNamespaces, namespaces } from '../../lib/i18n';
import { lazyWithPreload } from '../../lib/lazy-with-preload';
import { langFromPath, localePath } from '../../lib/locale-path';
import {
  chooseTeam,
  clearToken,
  restoreSession,
  setLoginType,
  useSession,
} from '../../lib/session';
import { ROUTES } from './route-table';
import { leafHandle, toRouteTarget } from './route-target';

/** The dashboard layout and the console's text load on the first dashboard route (the sign-in pages need neither). */
const DashboardShell = lazyWithPreload(() =>
  Promise.all([import('./dashboard-shell'), loadNamespaces(namespaces)]).then(
    ([module]) => module.DashboardShell,
  ),
);

/** antd's providers, for the public pages that use antd (route-table.tsx loads them with the page). */
const AntdScope = lazyWithPreload(() =>
  import('../../components/antd-scope').then((module) => module.AntdScope),
);

/** SPEC §9: head updates debounced 10 ms. */
export const TITLE_DEBOUNCE_MS = 10;
/** More redirects than this in a row means two rules disagree; show an error instead of looping. */
const MAX_REDIRECTS = 10;

function applyEffects(effects: readonly TGuardEffect[] | undefined): void {
  for (const effect of effects ?? []) {
    if (effect.kind === 'set-login-type') setLoginType(effect.loginType);
    else chooseTeam(effect.teamId);
  }
}

/** The guard's answer for the first screen, from the session as the cookies describe it. */
function decideFirstScreen(
  matches: Parameters<typeof leafHandle>[0],
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
) {
  const leaf = leafHandle(matches);
  if (!leaf) return undefined;
  const target = toRouteTarget(leaf.handle, leaf.params, location);
  const { token, user, loginType, teamId } = useSession.getState();
  const decision = decideNavigation(target, { token, user, loginType, teamIdCookie: teamId });
  const route = ROUTES.find((candidate) => candidate.name === leaf.handle.name);
  return route ? { decision, target, Page: route.Page } : undefined;
}

/**
 * Starts what the first screen needs before React first renders it (main.tsx calls this while the text loads):
 * the page's code and, for a dashboard page, the dashboard layout; and once the user is let in, the page's first
 * requests (TPage.prefetch), so the first render has their answers. Only where the guard lets the visitor in or
 * first asks for the user: a signed-out visit to a dashboard page goes to sign in, with no dashboard code loaded.
 */
export function preloadFirstScreen(
  matches: Parameters<typeof leafHandle>[0],
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  queryClient: QueryClient,
): void {
  const first = decideFirstScreen(matches, location);
  if (!first || (first.decision.kind !== 'allow' && first.decision.kind !== 'load-user')) return;
  // A failed load is reported where it renders (the route's error screen).
  first.Page.preload().catch(() => undefined);
  if (first.target.meta.layout === 'dashboard') DashboardShell.preload().catch(() => undefined);
  const prefetch = () => {
    // Asked again: the user may have been restored meanwhile, or the guard may send them elsewhere.
    if (decideFirstScreen(matches, location)?.decision.kind !== 'allow') return;
    first.Page.prefetch(queryClient, new URLSearchParams(location.search)).catch(() => undefined);
  };
  if (first.decision.kind === 'allow') prefetch();
  // The user's restore started in main.tsx: this joins it.
  else restoreSession().then(prefetch, () => undefined);
}

export function Loading() {
  const { t } = useTranslation();
  return (
    // A plain spinner: this shows before any page's code, antd's included, has loaded.
    <div
      role="status"
      aria-label={t('loading')}
      className="app-loading"
      style={{ display: 'flex', justifyContent: 'center', padding: 48 }}
    >
      <span className="ui-spinner ui-spinner-large" aria-hidden="true" />
    </div>
  );
}

function useDocumentHead(titleKey: string, lang: 'en' | 'zh') {
  useEffect(() => {
    const timer = setTimeout(() => {
      const t = i18n.getFixedT(lang);
      document.title = t('common:titleTemplate', {
        page: t(titleKey),
        app: t('common:appName'),
      });
      document.documentElement.lang = LANG_TAG[lang];
    }, TITLE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [titleKey, lang]);
}

function useScrollRule(keepScroll: boolean | undefined) {
  const location = useLocation();
  const previous = useRef<TScrollLocation | null>(null);
  useEffect(() => {
    const decision = decideScroll(previous.current, location, { keepScroll });
    previous.current = { pathname: location.pathname, hash: location.hash };
    if (decision.kind === 'top') window.scrollTo({ top: 0, left: 0 });
    if (decision.kind !== 'anchor') return;
    // The anchor may be in a page still loading: look for it a few frames longer.
    let tries = 0;
    let frame = 0;
    const find = () => {
      const element = document.getElementById(decision.id);
      if (element) element.scrollIntoView();
      else if (tries++ < 30) frame = requestAnimationFrame(find);
    };
    find();
    return () => cancelAnimationFrame(frame);
  }, [location, keepScroll]);
}

function WithLayout({
  layout,
  usesAntd,
  children,
}: {
  layout: 'default' | 'dashboard';
  /** the page draws with antd: its providers go around it (the dashboard layout has its own) */
  usesAntd: boolean;
  children: ReactNode;
}) {
  if (layout === 'dashboard') {
    return (
      <Suspense fallback={<Loading />}>
        <DashboardShell>{children}</DashboardShell>
      </Suspense>
    );
  }
  return (
    <DefaultLayout>
      {usesAntd ? (
        <Suspense fallback={<Loading />}>
          <AntdScope>{children}</AntdScope>
        </Suspense>
      ) : (
        children
      )}
    </DefaultLayout>
  );
}

export function AppShell() {
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const [restoreAttempt, setRestoreAttempt] = useState(0);
  const redirects = useRef(0);
  const [isLooping, setIsLooping] = useState(false);

  const leaf = leafHandle(matches);
  const target = useMemo(
    () => (leaf ? toRouteTarget(leaf.handle, leaf.params, location) : undefined),
    [leaf, location],
  );

  const decision: TGuardDecision = useMemo(() => {
    if (!target) {
      return {
        kind: 'error',
        status: 404,
        message: notFoundMessage(location.pathname),
        notFoundPath: location.pathname,
      };
    }
    return decideNavigation(target, {
      token: session.token,
      user: session.user,
      loginType: session.loginType,
      teamIdCookie: session.teamId,
    });
  }, [target, location.pathname, session.token, session.user, session.loginType, session.teamId]);

  // The URL prefix is the language (SPEC §4): keep i18next in step on back/forward and typed URLs.
  const routeLang = langFromPath(location.pathname);
  const [, setLangVersion] = useState(0);
  useLayoutEffect(() => {
    if (i18n.language === routeLang) return;
    // Re-render once the language is in, in case it changed before the i18n listeners were bound.
    void i18n.changeLanguage(routeLang).then(() => setLangVersion((n) => n + 1));
  }, [routeLang]);

  // A refused page never renders (Loading shows meanwhile). This is a passive effect on purpose: on the
  // first render RouterProvider subscribes to the router in its own layout effect, which runs after its
  // children's, so a navigate() from a child's layout effect would be lost.
  useEffect(() => {
    if (decision.kind === 'redirect') {
      redirects.current += 1;
      if (redirects.current > MAX_REDIRECTS) {
        console.error(`Route guard loop at ${decision.to}`);
        setIsLooping(true);
        return;
      }
      applyEffects(decision.effects);
      void navigate(decision.to, { replace: true });
      return;
    }
    redirects.current = 0;
    if (decision.kind === 'allow') applyEffects(decision.effects);
    if (decision.kind === 'clear-token-and-allow') clearToken();
  }, [decision, navigate]);

  useEffect(() => {
    if (decision.kind !== 'load-user') return;
    let active = true;
    void restoreSession().then((outcome) => {
      if (!active) return;
      if (outcome === 'retry') setRestoreAttempt((n) => n + 1);
      if (outcome === 'reset') void navigate(localePath('/', i18n.language === 'zh' ? 'zh' : 'en'));
    });
    return () => {
      active = false;
    };
  }, [decision.kind, restoreAttempt, navigate]);

  // The page's code and text load while the user is restored and the dashboard layout loads, not after them.
  const leafName = leaf?.handle.name;
  const mayShowPage = decision.kind === 'allow' || decision.kind === 'load-user';
  useEffect(() => {
    if (!mayShowPage) return;
    // A failed load is reported where the page renders (the route's error screen).
    ROUTES.find((route) => route.name === leafName)
      ?.Page.preload()
      .catch(() => undefined);
  }, [leafName, mayShowPage]);

  // Once the user is let in, the page's first requests start with its code, not after its first render.
  const isAllowed = decision.kind === 'allow';
  const search = location.search;
  useEffect(() => {
    if (!isAllowed) return;
    ROUTES.find((route) => route.name === leafName)
      ?.Page.prefetch(queryClient, new URLSearchParams(search))
      .catch(() => undefined);
  }, [leafName, isAllowed, queryClient, search]);

  useDocumentHead(
    decision.kind === 'error' ? 'layout:title.404' : (target?.meta.titleKey ?? 'layout:title.404'),
    routeLang,
  );
  useScrollRule(target?.meta.keepScroll);

  if (decision.kind === 'error' || isLooping) {
    const status = decision.kind === 'error' ? decision.status : 500;
    const message = decision.kind === 'error' ? decision.message : undefined;
    const notFoundPath = decision.kind === 'error' ? decision.notFoundPath : undefined;
    return (
      <DefaultLayout>
        <LazyErrorScreen
          status={status}
          {...(notFoundPath !== undefined ? { notFoundPath } : message ? { message } : {})}
          onBack={() => {
            redirects.current = 0;
            setIsLooping(false);
            void navigate(localePath('/', target?.lang ?? 'en'));
          }}
        />
      </DefaultLayout>
    );
  }

  const ready = decision.kind === 'allow' && !decision.effects;
  const leafPage = ROUTES.find((route) => route.name === leafName)?.Page;
  return (
    <WithLayout layout={target?.meta.layout ?? 'default'} usesAntd={leafPage?.usesAntd ?? true}>
      {ready ? (
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      ) : (
        <Loading />
      )}
    </WithLayout>
  );
}
