/**
 * The root route: asks the guard about every navigation and applies its answer, then renders the
 * route's layout, keeps the title and <html lang> current, and scrolls as SPEC §2 says.
 */
import { Spin } from 'antd';
import type { ReactNode } from 'react';
import { Suspense, lazy, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { LazyErrorScreen } from '../../components/lazy-error-screen';
import { DefaultLayout } from '../../components/layouts/default-layout';
import type { TGuardDecision, TGuardEffect, TScrollLocation } from '../../lib/guard';
import { decideNavigation, decideScroll, notFoundMessage } from '../../lib/guard';
import { LANG_TAG, i18n, loadNamespaces, namespaces } from '../../lib/i18n';
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
const DashboardShell = lazy(async () => {
  const [module] = await Promise.all([import('./dashboard-shell'), loadNamespaces(namespaces)]);
  return { default: module.DashboardShell };
});

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

export function Loading() {
  const { t } = useTranslation();
  return (
    // The name sits on the status region: axe refuses aria-label on the spinner's role-less div.
    <div
      role="status"
      aria-label={t('loading')}
      style={{ display: 'flex', justifyContent: 'center', padding: 48 }}
    >
      <Spin />
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
  children,
}: {
  layout: 'default' | 'dashboard';
  children: ReactNode;
}) {
  return layout === 'dashboard' ? (
    <Suspense fallback={<Loading />}>
      <DashboardShell>{children}</DashboardShell>
    </Suspense>
  ) : (
    <DefaultLayout>{children}</DefaultLayout>
  );
}

export function AppShell() {
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
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
  return (
    <WithLayout layout={target?.meta.layout ?? 'default'}>
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
