/**
 * Signing in beyond e-mail and password, against the shared fake API (params and answers checked against the
 * contract): the two-factor step after a password, the wallet (a fake EIP-1193 provider), and /first-login's offer
 * to bind an e-mail address.
 */
import type { TMethodName, TParamsIn } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { hashPassword } from '../../lib/password';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { COOKIE } from '../../lib/storage-keys';
import { toHexUtf8 } from '../../lib/wallet';
import type { TFakeHandlers } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { makePublicConfig, makeUser } from '../../test/fixtures';
import { FirstLoginPage } from './components/first-login-page';
import { LoginPage } from './components/login-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const SIWE_MESSAGE =
  'localhost wants you to sign in with your Ethereum account:\n0x1234567890abcdef1234567890abcdef12345678\n\nSign in to the console.\n\nNonce: 7f3a…';
const user = makeUser();

let handlers: TFakeHandlers;

function apiError(method: string, code: number) {
  return new RpcCallError(method, { code, message: `error ${code}`, messageZh: `错误 ${code}` });
}

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method);
}

function paramsOf<N extends TMethodName>(method: N) {
  return calls(method).map(([, params]) => params as TParamsIn<N>);
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
          <Route path={url} element={element} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function fillIn(label: string, value: string) {
  const field = screen.getByLabelText(label);
  await userEvent.click(field);
  await userEvent.clear(field);
  await userEvent.paste(value);
}

/** A browser wallet: answers the EIP-1193 requests the console makes; `reject` makes one fail. */
function installWallet(reject?: { method: string; error: unknown }) {
  const request = vi.fn(async ({ method }: { method: string; params?: readonly unknown[] }) => {
    if (reject?.method === method) throw reject.error;
    if (method === 'eth_requestAccounts') return [ADDRESS];
    if (method === 'eth_chainId') return '0x89';
    if (method === 'personal_sign') return SIGNATURE;
    throw new Error(`unexpected wallet request ${method}`);
  });
  vi.stubGlobal('ethereum', { request });
  return request;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  handlers = {
    hub_getConfig: () => makePublicConfig(),
    hub_getUserProfile: () => user,
  };
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => handlers));
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
});

describe('two-factor sign-in after the password', () => {
  beforeEach(() => {
    handlers.hub_login = () => ({
      token: 'pending-token',
      expiresAt: Date.now() + 300_000,
      twoFactorRequired: true,
    });
  });

  async function passwordStep() {
    renderPage('/', <LoginPage />);
    await fillIn('Email', 'ada@example.com');
    await fillIn('Password', 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Two-factor verification' }),
    ).toBeInTheDocument();
  }

  it('keeps the pending session aside, asks for the code, then signs in with the new token', async () => {
    handlers.hub_verifyTwoFactorLogin = (p: TParamsIn<'hub_verifyTwoFactorLogin'>) => {
      if (p.code !== '123456') throw apiError('hub_verifyTwoFactorLogin', 10220);
      return { token: 'full-token', expiresAt: Date.now() + 1000, twoFactorRequired: false };
    };
    await passwordStep();
    expect(paramsOf('hub_login')[0]!.password).toBe(hashPassword('secret-password'));
    // Nothing of a signed-in session yet: no cookie, no store, no profile.
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(useSession.getState().token).toBeNull();
    expect(calls('hub_getUserProfile')).toHaveLength(0);
    expect(screen.getByLabelText('Authentication code')).toHaveFocus();

    await fillIn('Authentication code', '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is wrong. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor verification' })).toBeInTheDocument();

    await fillIn('Authentication code', '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/endpoint');
    // Only the pending calls carry the pending token, and they say their errors themselves.
    for (const [, , options] of calls('hub_verifyTwoFactorLogin')) {
      expect(options).toMatchObject({ token: 'pending-token', keepSession: true });
      expect(options?.silentCodes).toContain(10220);
    }
    expect(useSession.getState().token).toBe('full-token');
    expect(Cookies.get(COOKIE.token)).toBe('full-token');
    expect(useSession.getState().user?.id).toBe(user.id);
  });

  it('takes a backup code through "Use a backup code"', async () => {
    handlers.hub_verifyTwoFactorLogin = () => ({
      token: 'full-token',
      expiresAt: Date.now() + 1000,
      twoFactorRequired: false,
    });
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Use a backup code' }));
    await fillIn('Backup code', 'ab12-cd34');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/endpoint');
    expect(paramsOf('hub_verifyTwoFactorLogin')).toEqual([{ code: 'ab12-cd34' }]);
  });

  it.each([
    [10103, 'five wrong codes ended it'],
    [10104, 'the session is still pending elsewhere'],
  ])('goes back to the password step on %i (%s)', async (code) => {
    handlers.hub_verifyTwoFactorLogin = () => {
      throw apiError('hub_verifyTwoFactorLogin', code);
    };
    await passwordStep();
    await fillIn('Authentication code', '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/This sign-in has ended/);
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(useSession.getState().token).toBeNull();
  });

  it('ends the pending session when the user goes back', async () => {
    handlers.hub_logout = () => ({ success: true });
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    await waitFor(() => expect(calls('hub_logout')).toHaveLength(1));
    expect(calls('hub_logout')[0]![2]).toMatchObject({ token: 'pending-token' });
  });
});

describe('wallet sign-in', () => {
  it('says how to get a wallet when the browser has none, without crashing', async () => {
    renderPage('/', <LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Install a wallet such as MetaMask');
    expect(screen.getByRole('link', { name: /Get MetaMask/ })).toHaveAttribute(
      'href',
      'https://metamask.io/download/',
    );
    expect(calls('hub_getMetamaskNonce')).toHaveLength(0);
  });

  it('signs the server message with the wallet and signs in', async () => {
    const wallet = installWallet();
    handlers.hub_getMetamaskNonce = () => ({
      message: SIWE_MESSAGE,
      expiresAt: Date.now() + 600_000,
    });
    handlers.hub_metamaskRegister = () => ({
      token: 'wallet-token',
      expiresAt: Date.now() + 1000,
      twoFactorRequired: false,
      created: true,
    });
    handlers.hub_getUserProfile = () => ({ ...user, email: null, initialize: false });
    renderPage('/', <LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/rpc/endpoint');

    expect(paramsOf('hub_getMetamaskNonce')).toEqual([
      { address: ADDRESS, chainId: 137, purpose: 'login' },
    ]);
    const sign = wallet.mock.calls.find(([request]) => request.method === 'personal_sign');
    expect(sign?.[0].params).toEqual([toHexUtf8(SIWE_MESSAGE), ADDRESS]);
    expect(toHexUtf8('Hi…')).toBe('0x4869e280a6');
    expect(paramsOf('hub_metamaskRegister')).toEqual([
      { message: SIWE_MESSAGE, signature: SIGNATURE, language: 'en' },
    ]);
    expect(useSession.getState().token).toBe('wallet-token');
  });

  it('says "cancelled" quietly when the user rejects in the wallet (4001)', async () => {
    installWallet({
      method: 'personal_sign',
      error: { code: 4001, message: 'User rejected the request.' },
    });
    handlers.hub_getMetamaskNonce = () => ({
      message: SIWE_MESSAGE,
      expiresAt: Date.now() + 600_000,
    });
    renderPage('/', <LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Cancelled in your wallet.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls('hub_metamaskRegister')).toHaveLength(0);
    expect(useSession.getState().token).toBeNull();
  });

  it('shows one button per configured provider', async () => {
    handlers.hub_getConfig = () =>
      makePublicConfig({
        oauthProviders: [
          { id: 'github', name: 'GitHub' },
          { id: 'google', name: 'Google' },
        ],
      });
    renderPage('/', <LoginPage />);
    expect(await screen.findByRole('button', { name: 'Continue with GitHub' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
  });
});

describe('/first-login for an account without e-mail', () => {
  it('offers to bind an address, which may be skipped, then asks for the terms', async () => {
    handlers.hub_noPassword = () => ({ isNoPassword: true, email: null });
    useSession.setState({
      token: 'tok',
      user: { ...user, email: null, initialize: false, acceptTerm: false, isNoPassword: true },
    });
    renderPage('/first-login', <FirstLoginPage />);
    expect(
      screen.getByRole('heading', { level: 2, name: 'Add an e-mail address (optional)' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(await screen.findByRole('checkbox')).toHaveAccessibleName(/I have read and agree/);
    expect(calls('hub_bindEmail')).toHaveLength(0);
  });
});
