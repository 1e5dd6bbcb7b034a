/**
 * Third-party sign-in and binding screens against the shared fake API (params and answers checked against the
 * contract): leaving for the provider with a remembered state, the callback's login-CSRF guard, signing in or
 * creating an account, and finishing a binding.
 */
import type { TMethodName, TParamsIn } from '@rpc/contract';
import { ERROR_CATALOGUE, ERROR_CODES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { externalNavigation } from '../../lib/oauth-attempt';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { COOKIE, STORAGE_KEY } from '../../lib/storage-keys';
import type { TFakeHandlers } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { makePublicConfig, makeUser } from '../../test/fixtures';
import { AuthCallbackPage } from './components/auth-callback-page';
import { BindCallbackPage } from './components/bind-callback-page';
import { ThirdPartyLoginPage } from './components/third-party-login-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const STATE = 'state_abcdefghijklmnop';
const TICKET = 'ticket_abcdefghijklmnop';
const user = makeUser();

let handlers: TFakeHandlers;

function paramsOf<N extends TMethodName>(method: N) {
  return rpc.mock.calls
    .filter(([name]) => name === method)
    .map(([, params]) => params as TParamsIn<N>);
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}

function renderPage(url: string, element: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={url.split('?')[0]} element={element} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function remember(attempt: { state: string; provider: string; purpose: 'login' | 'bind' }) {
  sessionStorage.setItem(STORAGE_KEY.oauthAttempt, JSON.stringify(attempt));
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  handlers = {
    hub_getConfig: () =>
      makePublicConfig({
        oauthProviders: [
          { id: 'github', name: 'GitHub' },
          { id: 'corp-sso', name: 'Corp SSO' },
        ],
      }),
    hub_getUserProfile: () => user,
  };
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => handlers));
  sessionStorage.clear();
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
});

describe('/third-party/login', () => {
  it('remembers the state and leaves for the provider', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => {});
    handlers.hub_getOauthLoginUrl = () => ({
      url: 'https://github.example/login/oauth/authorize?state=x',
      state: STATE,
    });
    renderPage('/third-party/login', <ThirdPartyLoginPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Sign in with a wallet or another account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with wallet' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://github.example/login/oauth/authorize?state=x'),
    );
    expect(paramsOf('hub_getOauthLoginUrl')).toEqual([{ provider: 'github' }]);
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEY.oauthAttempt)!)).toEqual({
      state: STATE,
      provider: 'github',
      purpose: 'login',
    });
  });

  it('shows no provider buttons when none is configured', async () => {
    handlers.hub_getConfig = () => makePublicConfig();
    renderPage('/third-party/login', <ThirdPartyLoginPage />);
    await waitFor(() => expect(paramsOf('hub_getConfig')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sign in with wallet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
  });
});

describe('/auth/callback', () => {
  it.each([
    ['a different state', { state: 'state_someone_elses_x', provider: 'github', purpose: 'login' }],
    ['nothing started', null],
    ['a binding, not a sign-in', { state: STATE, provider: 'github', purpose: 'bind' }],
  ] as const)('refuses a callback with %s (login CSRF)', async (_case, stored) => {
    if (stored) remember(stored);
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This sign-in did not start here' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/');
    expect(paramsOf('hub_checkOauthCode')).toHaveLength(0);
    expect(sessionStorage.getItem(STORAGE_KEY.oauthAttempt)).toBeNull();
  });

  it('says plainly that the user cancelled at the provider', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    renderPage(`/auth/callback?error=access_denied&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign-in cancelled' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('GitHub says you cancelled. Nothing was changed.'),
    ).toBeVisible();
    expect(paramsOf('hub_checkOauthCode')).toHaveLength(0);
  });

  it('signs in a known identity and clears the stored state', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    handlers.hub_checkOauthCode = () => ({
      signIn: { token: 'oauth-token', expiresAt: Date.now() + 1000, twoFactorRequired: false },
      registration: null,
    });
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/endpoint');
    expect(paramsOf('hub_checkOauthCode')).toEqual([
      { provider: 'github', code: 'abc', state: STATE },
    ]);
    expect(useSession.getState().token).toBe('oauth-token');
    expect(sessionStorage.getItem(STORAGE_KEY.oauthAttempt)).toBeNull();
  });

  it('asks for the two-factor code when the identity has it on', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    handlers.hub_checkOauthCode = () => ({
      signIn: { token: 'pending-token', expiresAt: Date.now() + 1000, twoFactorRequired: true },
      registration: null,
    });
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Two-factor verification' }),
    ).toBeInTheDocument();
    expect(useSession.getState().token).toBeNull();
  });

  it('offers to create an account for a new identity, and creates it', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    handlers.hub_checkOauthCode = () => ({
      signIn: null,
      registration: {
        ticket: TICKET,
        provider: 'github',
        email: 'ada@example.com',
        name: 'Ada',
        emailTaken: false,
      },
    });
    handlers.hub_oauthRegister = () => ({
      token: 'new-token',
      expiresAt: Date.now() + 1000,
      twoFactorRequired: false,
      created: true,
    });
    handlers.hub_getUserProfile = () => ({ ...user, initialize: false, isNoPassword: true });
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Create an account with GitHub (ada@example.com)?',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/already exists/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/endpoint');
    expect(paramsOf('hub_oauthRegister')).toEqual([{ ticket: TICKET, language: 'en' }]);
    expect(useSession.getState().token).toBe('new-token');
  });

  it('points to binding from the profile when the address already has an account', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    handlers.hub_checkOauthCode = () => ({
      signIn: null,
      registration: {
        ticket: TICKET,
        provider: 'github',
        email: 'ada@example.com',
        name: null,
        emailTaken: true,
      },
    });
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByText('An account with ada@example.com already exists'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/sign in to that account and bind GitHub from your profile/),
    ).toBeVisible();
    // A separate account stays possible.
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(paramsOf('hub_oauthRegister')).toHaveLength(0);
  });

  it('shows why the server refused the code (the call has no popup)', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    handlers.hub_checkOauthCode = () => {
      throw new RpcCallError('hub_checkOauthCode', {
        code: 10217,
        message: 'The provider did not confirm the sign-in. Please try again.',
        messageZh: '第三方未确认此次登录，请重试。',
      });
    };
    renderPage(`/auth/callback?code=abc&state=${STATE}`, <AuthCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'We could not sign you in' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The provider did not confirm the sign-in. Please try again.'),
    ).toBeInTheDocument();
  });
});

describe('/bind/callback', () => {
  beforeEach(() => {
    useSession.setState({ token: 'tok', user, loginType: 'personal', teamId: null });
  });

  it('binds the provider and goes back to the profile', async () => {
    remember({ state: STATE, provider: 'corp-sso', purpose: 'bind' });
    handlers.hub_bindOauth = () => ({ provider: 'corp-sso', email: 'ada@corp.example' });
    handlers.hub_getUserProfile = () => ({
      ...user,
      oauth: [{ provider: 'corp-sso', email: 'ada@corp.example' }],
    });
    renderPage(`/bind/callback?code=xyz&state=${STATE}`, <BindCallbackPage />);
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/profile');
    expect(paramsOf('hub_bindOauth')).toEqual([
      { provider: 'corp-sso', code: 'xyz', state: STATE },
    ]);
    expect(useSession.getState().user?.oauth).toEqual([
      { provider: 'corp-sso', email: 'ada@corp.example' },
    ]);
    expect(await screen.findByText('Corp SSO is now bound to your account.')).toBeInTheDocument();
  });

  it('refuses a binding that did not start in this tab', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'login' });
    renderPage(`/bind/callback?code=xyz&state=${STATE}`, <BindCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This binding did not start here' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your profile' })).toHaveAttribute(
      'href',
      '/rpc/profile',
    );
    expect(paramsOf('hub_bindOauth')).toHaveLength(0);
  });

  it('keeps the reason on screen when the server refuses', async () => {
    remember({ state: STATE, provider: 'github', purpose: 'bind' });
    handlers.hub_bindOauth = () => {
      throw new RpcCallError('hub_bindOauth', {
        code: 10212,
        message: 'This wallet or third-party account is already bound to another user.',
        messageZh: '该钱包或第三方账号已绑定其他用户。',
      });
    };
    renderPage(`/bind/callback?code=xyz&state=${STATE}`, <BindCallbackPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'GitHub could not be bound' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/already bound to another user/)).toBeInTheDocument();
  });

  it.each(['en', 'zh'] as const)(
    'says to sign in again when the binding comes back over 15 minutes after sign-in (10225, %s)',
    async (lang) => {
      await act(() => i18n.changeLanguage(lang));
      remember({ state: STATE, provider: 'github', purpose: 'bind' });
      const { en, zh } = ERROR_CATALOGUE[ERROR_CODES.RECENT_SIGN_IN_REQUIRED];
      handlers.hub_bindOauth = () => {
        throw new RpcCallError('hub_bindOauth', {
          code: ERROR_CODES.RECENT_SIGN_IN_REQUIRED,
          message: en,
          messageZh: zh,
        });
      };
      renderPage(`/bind/callback?code=xyz&state=${STATE}`, <BindCallbackPage />);
      const t = i18n.getFixedT(lang, 'oauth');
      expect(
        await screen.findByRole('heading', {
          level: 1,
          name: t('bindCallback.failedTitle', { provider: 'GitHub' }),
        }),
      ).toBeInTheDocument();
      expect(screen.getByText(lang === 'en' ? en : zh)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: t('common.backToProfile') })).toBeInTheDocument();
      // Not silenced: the client's popup says it too, as for hub_bindEmail.
      const options = rpc.mock.calls.find(([method]) => method === 'hub_bindOauth')?.[2];
      expect(options?.silentCodes ?? []).not.toContain(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
      expect(options?.hideError).not.toBe(true);
    },
  );
});
