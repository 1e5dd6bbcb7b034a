import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../lib/i18n';
import { langFromPath } from '../lib/locale-path';
import { createQueryClient } from '../lib/query-client';
import { callRpc, isCancelledError } from '../lib/rpc-client';
import { useSession } from '../lib/session';
import { COOKIE } from '../lib/storage-keys';
import { AppProviders } from './providers';
import { buildRouteTree, wireRouter } from './router';
import { makeUser } from '../test/fixtures';

const profile = makeUser();

const methods: string[] = [];

async function renderAt(path: string) {
  // As main.tsx does: i18next starts in the URL's language.
  await i18n.changeLanguage(langFromPath(path));
  const router = wireRouter(createMemoryRouter(buildRouteTree(), { initialEntries: [path] }));
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  methods.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      const { method, params } = JSON.parse(String(init.body)) as {
        method: string;
        params: { lang?: string };
      };
      methods.push(method);
      const result =
        method === 'hub_getUserProfile'
          ? profile
          : method === 'hub_changeUserLang'
            ? { language: params.lang }
            : { success: true };
      return Promise.resolve(new Response(JSON.stringify({ id: 1, result })));
    }),
  );
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function signInAsPersonal() {
  Cookies.set(COOKIE.token, 'tok');
  Cookies.set(COOKIE.loginType, 'personal');
  useSession.setState({ token: 'tok', loginType: 'personal', user: null, teamId: null });
}

describe('app shell', () => {
  it('sends a guest from a dashboard page to the sign-in page', async () => {
    const router = await renderAt('/rpc/endpoint');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(document.title).toBe('Sign in · RPC Console'));
  });

  it('shows the not-found screen with the path for unknown pages', async () => {
    await renderAt('/no/such/page?x=1');
    expect(await screen.findByText('Page Not Found: /no/such/page?x=1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to home' })).toBeInTheDocument();
  });

  it('says which page was not found in Chinese on /zh', async () => {
    await renderAt('/zh/no/such/page?x=1');
    expect(await screen.findByText('页面未找到：/zh/no/such/page?x=1')).toBeInTheDocument();
    expect(screen.queryByText(/Page Not Found/)).not.toBeInTheDocument();
  });

  it('sets a localised, debounced document title', async () => {
    await renderAt('/zh/404');
    expect(await screen.findByRole('button', { name: '返回首页' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '语言' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('页面未找到 · RPC 控制台'));
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('restores the session, renders the dashboard with its navigation and user menu', async () => {
    signInAsPersonal();
    await renderAt('/rpc/endpoint');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    for (const label of [
      'Endpoint',
      'Statistics',
      'Billing',
      'Dedicated nodes',
      'Team',
      'Profile',
    ]) {
      expect(within(nav).getByRole('link', { name: label })).toBeInTheDocument();
    }
    expect(methods).toContain('hub_getUserProfile');
    expect(screen.getByRole('button', { name: 'User menu (Ada)' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Endpoints' })).toBeInTheDocument();
  });

  it('collapses the sidebar and remembers it in app-config', async () => {
    signInAsPersonal();
    await renderAt('/rpc/statistic');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(JSON.parse(localStorage.getItem('app-config') ?? '{}')).toEqual({
      sidebarWidth: 200,
      sidebarCollapse: true,
    });
  });

  it('switches to Chinese: URL prefix, cookie, server told, texts', async () => {
    signInAsPersonal();
    const router = await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Language' }));
    await user.click(await screen.findByRole('menuitem', { name: '中文' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/zh/rpc/endpoint'));
    expect(Cookies.get(COOKIE.lang)).toBe('zh');
    await waitFor(() => expect(methods).toContain('hub_changeUserLang'));
    expect(await screen.findByRole('button', { name: '语言' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: '主导航' })).toBeInTheDocument();
  });

  it('signs out from the user menu without confirmation', async () => {
    signInAsPersonal();
    const router = await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /User menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(methods).toContain('hub_logout');
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(useSession.getState().token).toBeNull();
  });

  it('sends an uninitialised personal user to first-login', async () => {
    signInAsPersonal();
    profile.initialize = false;
    try {
      const router = await renderAt('/rpc/billings');
      await waitFor(() => expect(router.state.location.pathname).toBe('/first-login'));
    } finally {
      profile.initialize = true;
    }
  });

  it('clears the token on third-party-login?from=admin', async () => {
    signInAsPersonal();
    const router = await renderAt('/third-party/login?from=admin');
    await act(async () => {});
    await waitFor(() => expect(useSession.getState().token).toBeNull());
    expect(router.state.location.pathname).toBe('/third-party/login');
  });

  it('follows the URL language and cancels calls of the old route on a route-name change', async () => {
    const router = await renderAt('/404');
    expect(await screen.findByRole('button', { name: 'Back to home' })).toBeInTheDocument();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('', 'AbortError')),
            ),
          ),
      ),
    );
    const inFlight = callRpc('hub_getConfig', {}).catch((error: unknown) => error);
    await act(() => router.navigate('/zh/no/such/page'));
    expect(isCancelledError(await inFlight)).toBe(true);
    expect(await screen.findByRole('button', { name: '返回首页' })).toBeInTheDocument();
    expect(i18n.language).toBe('zh');
  });
});
