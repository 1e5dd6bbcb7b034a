import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { preloadFirstScreen } from './app/routes/app-shell';
import { startBuildWatcher } from './app/build-watcher';
import './app/global.css';
import { detectLanguage, initI18n, readLangCookie } from './lib/i18n';
import { SHELL_NAMESPACES } from './lib/locale-chunks';
import { langFromPath, localePath } from './lib/locale-path';
import { createQueryClient } from './lib/query-client';
import { RpcCallError, isCancelledError } from './lib/rpc-client';
// Imported for its side effect too: it wires sign-out on invalid sessions into the request client.
import { restoreSession, setSessionHookLoader, useSession } from './lib/session';

async function start() {
  const { pathname, search, hash } = window.location;
  // SPEC §4 app start: an unprefixed URL opens in the cookie's or the browser's language.
  const detected = detectLanguage({
    pathname,
    cookie: readLangCookie(),
    browser: navigator.languages ?? [navigator.language],
  });
  if (detected.lang !== langFromPath(pathname)) {
    window.history.replaceState(null, '', localePath(`${pathname}${search}${hash}`, detected.lang));
  }
  // The shell's text only: each page loads its own before it renders (app/routes/route-table.tsx).
  const i18nReady = initI18n(langFromPath(window.location.pathname), SHELL_NAMESPACES);
  // A reload of a signed-in page: ask for the user now rather than after the first render (AppShell's restore
  // joins this call and handles its outcome). i18next has its language by the time an answer can come.
  const { token, user } = useSession.getState();
  if (token && !user) restoreSession().catch(() => undefined);
  // The first screen's code (its page, and the dashboard layout for a dashboard page) loads beside the text, asked
  // for just after it: i18next asks for its files in a task of its own, and the browser opens six connections to a
  // host, so the text that the first render waits for goes first.
  const router = createAppRouter();
  const queryClient = createQueryClient();
  setTimeout(() => preloadFirstScreen(router.state.matches, router.state.location, queryClient), 0);
  await i18nReady;

  // Failed calls have shown their popup already and cancelled ones need nothing; the rest is logged.
  window.addEventListener('unhandledrejection', (event) => {
    if (isCancelledError(event.reason) || event.reason instanceof RpcCallError) {
      event.preventDefault();
      return;
    }
    console.error('Unhandled rejection', event.reason);
  });

  // Notices, wallet, teams and limit info follow the session (app/session-wiring.ts): loaded once there is one.
  let wiring: Promise<void> | null = null;
  const wireSession = (): Promise<void> =>
    (wiring ??= import('./app/session-wiring').then(
      (module) => module.wireSessionFeatures(queryClient),
      (error: unknown) => {
        wiring = null; // a failed chunk load is tried again by the next hook run
        throw error;
      },
    ));
  setSessionHookLoader(wireSession);
  const onWiringFailed = (error: unknown) =>
    console.error('Session features failed to load', error);
  if (useSession.getState().token) wireSession().catch(onWiringFailed);
  useSession.subscribe((state) => {
    if (state.token) wireSession().catch(onWiringFailed);
  });

  startBuildWatcher();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
