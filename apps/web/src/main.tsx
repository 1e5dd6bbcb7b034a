import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { startBuildWatcher } from './app/build-watcher';
import './app/global.css';
import './lib/antd-react19';
import { detectLanguage, initI18n, readLangCookie } from './lib/i18n';
import { langFromPath, localePath } from './lib/locale-path';
import { createQueryClient } from './lib/query-client';
import { RpcCallError, isCancelledError } from './lib/rpc-client';
// Imported for its side effect too: it wires sign-out on invalid sessions into the request client.
import './lib/session';
// Registers the limit-info load on the after-login seam (SPEC §4).
import './lib/limit-info';
import { showNoticePopup } from './components/notice-popup';
import { wireNotices } from './lib/notices';
import { wireWallet } from './features/billing/api/wire-wallet';
import { wireTeams } from './features/team/api/wire-teams';

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
  await initI18n(langFromPath(window.location.pathname));

  // Failed calls have shown their popup already and cancelled ones need nothing; the rest is logged.
  window.addEventListener('unhandledrejection', (event) => {
    if (isCancelledError(event.reason) || event.reason instanceof RpcCallError) {
      event.preventDefault();
      return;
    }
    console.error('Unhandled rejection', event.reason);
  });

  // SPEC §4: the notice socket and unread notices follow the session; each notice pops up.
  wireNotices({ show: showNoticePopup });
  const queryClient = createQueryClient();
  // SPEC §4: a deposit notice refreshes the wallet queries; sign-in loads the wallet overview.
  wireWallet(queryClient);
  // SPEC §4: a team removal or disband notice about another team refreshes the team list and team queries.
  wireTeams(queryClient);

  const router = createAppRouter();
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
