/** The account pages against a fake request client: only callRpc (the network boundary) is replaced. */
import type { TMethodName, TParamsIn } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { HELP_LINKS } from '../../lib/help-links';
import { hashPassword } from '../../lib/password';
import { useSession } from '../../lib/session';
import { COOKIE } from '../../lib/storage-keys';
import { ActivateAccountPage } from './components/activate-account-page';
import { EmailConfirmPage } from './components/email-confirm-page';
import { FirstLoginPage } from './components/first-login-page';
import { LoginPage } from './components/login-page';
import { RegisterConfirmPage } from './components/register-confirm-page';
import { RegisterPage } from './components/register-page';
import { ResetPasswordCheckingPage } from './components/reset-password-checking-page';
import { ResetPasswordPage } from './components/reset-password-page';
import { ResetPasswordSetPage } from './components/reset-password-set-page';
import { SetPasswordCheckingPage } from './components/set-password-checking-page';
import { SetPasswordSetPage } from './components/set-password-set-page';
import { getSafeRedirect } from '../../lib/safe-redirect';
import { makePublicConfig, makeUser } from '../../test/fixtures';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const CODE = 'abcdefghijklmnop0123456789';
const DIGEST = /^[0-9a-f]{32}$/;

const user = makeUser({ id: 'u1', createdAt: Date.UTC(2026, 0, 2, 3, 4) });

type THandlers = Partial<Record<TMethodName, (params: unknown) => unknown>>;

/** Answers each method with its handler; a handler that throws becomes a rejected call. */
function fakeApi(handlers: THandlers) {
  rpc.mockImplementation(async (method, params) => {
    const handler = handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return handler(params) as never;
  });
}

function apiError(method: string, code: number, extra: { attemptsExpireAt?: number } = {}) {
  return new RpcCallError(method, {
    code,
    message: `error ${code}`,
    messageZh: `错误 ${code}`,
    ...extra,
  });
}

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls
    .filter(([name]) => name === method)
    .map(([, params]) => params as TParamsIn<N>);
}

/** The params of the only call of `method`. */
function onlyCall<N extends TMethodName>(method: N): TParamsIn<N> {
  const made = calls(method);
  expect(made).toHaveLength(1);
  return made[0]!;
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

/** Renders `element` at `url`; every other path shows where the app went. */
function renderPage(url: string, element: ReactElement) {
  const pathname = url.split('?')[0]!;
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={pathname} element={element} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Typing key by key re-renders Ant Design forms per key; pasting keeps the tests fast. */
async function fillIn(label: string, value: string) {
  const field = screen.getByLabelText(label);
  await userEvent.click(field);
  await userEvent.paste(value);
}

async function expectLocation(path: string) {
  expect(await screen.findByTestId('location')).toHaveTextContent(path);
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  rpc.mockReset();
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
});

describe('password digest (SPEC §5)', () => {
  it('is 32 lowercase hex characters and never the password', () => {
    const digest = hashPassword('correct horse');
    expect(digest).toMatch(DIGEST);
    expect(digest).not.toContain('correct horse');
  });
});

describe('getSafeRedirect', () => {
  it.each([
    ['/rpc/profile', '/rpc/profile'],
    ['/rpc', '/rpc'],
    ['/zh/rpc/team?tab=2', '/rpc/team?tab=2'],
    ['/register', null],
    ['//evil.example/rpc', null],
    ['https://evil.example/rpc', null],
    ['/\\evil.example', null],
    ['javascript:alert(1)', null],
    [null, null],
  ])('%s -> %s', (raw, expected) => {
    expect(getSafeRedirect(raw, 'http://localhost:3000')).toBe(expected);
  });
});

describe('LoginPage', () => {
  async function signInWith(email: string, password: string) {
    await fillIn('Email', email);
    await fillIn('Password', password);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('sends the password hashed, signs in and goes to the endpoint page', async () => {
    fakeApi({
      hub_login: () => ({ token: 'tok', expiresAt: Date.now() + 1000 }),
      hub_getUserProfile: () => user,
    });
    renderPage('/', <LoginPage />);
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await signInWith(' Ada@Example.com ', 'secret-password');
    await expectLocation('/rpc/endpoint');
    const params = onlyCall('hub_login');
    expect(params.email).toBe('ada@example.com');
    expect(params.password).toMatch(DIGEST);
    expect(params.password).toBe(hashPassword('secret-password'));
    expect(JSON.stringify(rpc.mock.calls)).not.toContain('secret-password');
    expect(useSession.getState().token).toBe('tok');
    expect(Cookies.get(COOKIE.token)).toBe('tok');
  });

  it.each([
    ['/rpc/profile', '/rpc/profile'],
    ['https://evil.example/rpc/profile', '/rpc/endpoint'],
    ['/register', '/rpc/endpoint'],
  ])('follows redirect=%s only to same-site /rpc paths', async (redirect, expected) => {
    fakeApi({
      hub_login: () => ({ token: 'tok', expiresAt: 0 }),
      hub_getUserProfile: () => user,
    });
    renderPage(`/?redirect=${encodeURIComponent(redirect)}`, <LoginPage />);
    await signInWith('ada@example.com', 'secret-password');
    await expectLocation(expected);
  });

  it('does not call the server when the form is incomplete', async () => {
    fakeApi({ hub_getConfig: () => makePublicConfig() });
    renderPage('/', <LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter your e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password.')).toBeInTheDocument();
    // The page reads the public config for its provider buttons; nothing else is asked.
    expect(rpc.mock.calls.map(([method]) => method).filter((m) => m !== 'hub_getConfig')).toEqual(
      [],
    );
  });

  it("checks the address with the contract's schema, names the error on the field and focuses it", async () => {
    fakeApi({ hub_getConfig: () => makePublicConfig() });
    renderPage('/', <LoginPage />);
    await fillIn('Email', 'not-an-address');
    await fillIn('Password', 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const message = await screen.findByText('Please enter a valid e-mail address.');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid e-mail address.');
    expect(message).toHaveAttribute('role', 'alert');
    expect(email).toHaveFocus();
    expect(calls('hub_login')).toHaveLength(0);
    // Corrected, the message goes as the user types (antd's rule ran on every change too).
    await fillIn('Email', '@example.com');
    await waitFor(() =>
      expect(screen.queryByText('Please enter a valid e-mail address.')).not.toBeInTheDocument(),
    );
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('shows and hides the password with a named toggle button', async () => {
    fakeApi({ hub_getConfig: () => makePublicConfig() });
    renderPage('/', <LoginPage />);
    const password = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('offers to resend the confirmation mail on 10203', async () => {
    fakeApi({
      hub_login: () => {
        throw apiError('hub_login', 10203);
      },
      hub_sendRegisterConfirmMail: () => ({ sent: true }),
    });
    renderPage('/', <LoginPage />);
    await signInWith('ada@example.com', 'secret-password');
    expect(await screen.findByText('Your e-mail address is not confirmed yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'I am waiting for the mail' })).toHaveAttribute(
      'href',
      '/register-confirm?email=ada%40example.com',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Resend confirmation mail' }));
    await waitFor(() =>
      expect(calls('hub_sendRegisterConfirmMail')).toEqual([{ email: 'ada@example.com' }]),
    );
    expect(await screen.findByRole('button', { name: /Send again in \d+ s/ })).toBeDisabled();
  });

  it('has Chinese labels and button under /zh', async () => {
    await act(() => i18n.changeLanguage('zh'));
    fakeApi({});
    renderPage('/zh', <LoginPage />);
    expect(screen.getByLabelText('邮箱')).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '登录' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '立即注册' })).toHaveAttribute('href', '/zh/register');
  });

  it('shows no alert for other errors (the client popup is enough)', async () => {
    fakeApi({
      hub_login: () => {
        throw apiError('hub_login', 10202);
      },
    });
    renderPage('/', <LoginPage />);
    await signInWith('ada@example.com', 'wrong-password');
    await waitFor(() => expect(calls('hub_login')).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });
});

describe('RegisterPage', () => {
  async function fill(password: string, confirm: string, acceptTerms = true) {
    await fillIn('Email', 'new@example.com');
    await fillIn('Password', password);
    await fillIn('Confirm password', confirm);
    if (acceptTerms) await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
  }

  it('hashes both passwords and goes to the confirm page', async () => {
    fakeApi({
      hub_emailExists: () => ({ exists: false }),
      hub_register: () => ({ email: 'new@example.com', confirmMailSent: true }),
    });
    renderPage('/register', <RegisterPage />);
    await fill('long-enough-1', 'long-enough-1');
    await expectLocation('/register-confirm?email=new%40example.com');
    const params = onlyCall('hub_register');
    expect(params).toMatchObject({ email: 'new@example.com', language: 'en' });
    expect(params.password).toMatch(DIGEST);
    expect(params.confirmPassword).toBe(params.password);
    expect(JSON.stringify(rpc.mock.calls)).not.toContain('long-enough-1');
    expect(Cookies.get(COOKIE.registerConfirm)).toBe('new@example.com');
  });

  it('registers a team account with its first team through hub_registerTeam', async () => {
    fakeApi({
      hub_emailExists: () => ({ exists: false }),
      hub_registerTeam: () => ({ email: 'new@example.com', confirmMailSent: true }),
    });
    renderPage('/register', <RegisterPage />);
    // antd hides the radio input behind its label: click the label, as a user does.
    await userEvent.click(screen.getByRole('radio', { name: 'Team' }).closest('label')!);
    await fill('long-enough-1', 'long-enough-1');
    expect(await screen.findByText(/Enter a team name of up to 40 characters/)).toBeInTheDocument();
    expect(calls('hub_registerTeam')).toHaveLength(0);
    await fillIn('Team name', '  Night shift ');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await expectLocation('/register-confirm?email=new%40example.com');
    const params = onlyCall('hub_registerTeam');
    expect(params).toMatchObject({ email: 'new@example.com', teamName: 'Night shift' });
    expect(params.password).toMatch(DIGEST);
    expect(calls('hub_register')).toHaveLength(0);
  });

  it('links the terms and the privacy policy from the consent, in a new tab', async () => {
    fakeApi({ hub_emailExists: () => ({ exists: false }) });
    renderPage('/register', <RegisterPage />);
    const terms = screen.getByRole('link', { name: /Terms of Service/ });
    const privacy = screen.getByRole('link', { name: /Privacy Policy/ });
    expect(terms).toHaveAttribute('href', HELP_LINKS.terms);
    expect(privacy).toHaveAttribute('href', HELP_LINKS.privacy);
    expect(terms).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('checkbox')).toHaveAccessibleName(
      /I have read and agree to the Terms of Service/,
    );
  });

  it('blocks a mismatched confirmation', async () => {
    fakeApi({ hub_emailExists: () => ({ exists: false }) });
    renderPage('/register', <RegisterPage />);
    await fill('long-enough-1', 'long-enough-2');
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(calls('hub_register')).toHaveLength(0);
  });

  it('blocks short passwords and unaccepted terms', async () => {
    fakeApi({ hub_emailExists: () => ({ exists: false }) });
    renderPage('/register', <RegisterPage />);
    await fill('short', 'short', false);
    expect(
      await screen.findByText('The password must be 8 to 64 characters long.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Please accept the Terms of Service and Privacy Policy to continue.'),
    ).toBeInTheDocument();
    expect(calls('hub_register')).toHaveLength(0);
  });

  it('says when the address is taken, asking quietly on blur', async () => {
    fakeApi({ hub_emailExists: () => ({ exists: true }) });
    renderPage('/register', <RegisterPage />);
    await fillIn('Email', 'taken@example.com');
    await userEvent.tab();
    expect(await screen.findByText('This e-mail is already registered.')).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith(
      'hub_emailExists',
      { email: 'taken@example.com' },
      expect.objectContaining({ hideLimit: true }),
    );
  });

  it('has Chinese labels under /zh', async () => {
    await act(() => i18n.changeLanguage('zh'));
    fakeApi({});
    renderPage('/zh/register', <RegisterPage />);
    expect(screen.getByLabelText('邮箱')).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toBeInTheDocument();
    expect(screen.getByLabelText('确认密码')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '注册' })).toBeInTheDocument();
  });
});

describe('RegisterConfirmPage', () => {
  it('shows the address and resends with a countdown', async () => {
    fakeApi({ hub_sendRegisterConfirmMail: () => ({ sent: true }) });
    renderPage('/register-confirm?email=new%40example.com', <RegisterConfirmPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('new@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resend confirmation mail' }));
    expect(await screen.findByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
    expect(calls('hub_sendRegisterConfirmMail')).toEqual([{ email: 'new@example.com' }]);
  });
});

describe('ActivateAccountPage', () => {
  it('checks the code, uses it once and says the e-mail is confirmed', async () => {
    fakeApi({
      hub_checkEmailConfirmCodeStatus: () => ({ status: 'valid', email: 'ada@example.com' }),
      hub_emailConfirm: () => ({ email: 'ada@example.com', confirmed: true }),
    });
    renderPage(`/activate-account?code=${CODE}`, <ActivateAccountPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your e-mail is confirmed' }),
    ).toBeInTheDocument();
    expect(calls('hub_emailConfirm')).toEqual([{ code: CODE }]);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await expectLocation('/');
  });

  it.each([
    ['used', 'This link has already been used'],
    ['expired', 'This link has expired'],
    ['invalid', 'This link is not valid'],
  ] as const)('status %s shows its state and a way to a new mail', async (status, title) => {
    fakeApi({
      hub_checkEmailConfirmCodeStatus: () => ({ status, email: 'ada@example.com' }),
      hub_sendRegisterConfirmMail: () => ({ sent: true }),
    });
    renderPage(`/activate-account?code=${CODE}`, <ActivateAccountPage />);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(calls('hub_emailConfirm')).toHaveLength(0);
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send confirmation mail' }));
    await waitFor(() =>
      expect(calls('hub_sendRegisterConfirmMail')).toEqual([{ email: 'ada@example.com' }]),
    );
  });

  it('treats a malformed code as invalid without asking the server', async () => {
    fakeApi({});
    renderPage('/activate-account?code=bad', <ActivateAccountPage />);
    expect(screen.getByRole('heading', { name: 'This link is not valid' })).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('explains what to do without a code', () => {
    fakeApi({});
    renderPage('/activate-account', <ActivateAccountPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });

  it('shows the used state when the code was used in between', async () => {
    fakeApi({
      hub_checkEmailConfirmCodeStatus: () => ({ status: 'valid', email: null }),
      hub_emailConfirm: () => {
        throw apiError('hub_emailConfirm', 10020);
      },
    });
    renderPage(`/activate-account?code=${CODE}`, <ActivateAccountPage />);
    expect(
      await screen.findByRole('heading', { name: 'This link has already been used' }),
    ).toBeInTheDocument();
  });

  it('sends a signed-in user to the console after confirming', async () => {
    useSession.setState({ token: 'tok', user });
    fakeApi({
      hub_checkEmailConfirmCodeStatus: () => ({ status: 'valid', email: 'ada@example.com' }),
      hub_emailConfirm: () => ({ email: 'ada@example.com', confirmed: true }),
      hub_getUserProfile: () => user,
    });
    renderPage(`/activate-account?code=${CODE}`, <ActivateAccountPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Go to console' }));
    await expectLocation('/rpc/endpoint');
    expect(calls('hub_getUserProfile')).toHaveLength(1);
  });
});

describe('EmailConfirmPage', () => {
  it('confirms the address of a signed-in user and refreshes the user', async () => {
    useSession.setState({ token: 'tok', user: { ...user, mailStatus: 0 } });
    fakeApi({
      hub_checkEmailConfirmCodeStatus: () => ({ status: 'valid', email: 'ada@example.com' }),
      hub_emailConfirm: () => ({ email: 'ada@example.com', confirmed: true }),
      hub_getUserProfile: () => user,
    });
    renderPage(`/email-confirm?code=${CODE}`, <EmailConfirmPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your e-mail is confirmed' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(useSession.getState().user?.mailStatus).toBe(1));
    expect(rpc).toHaveBeenCalledWith(
      'hub_checkEmailConfirmCodeStatus',
      { code: CODE },
      expect.objectContaining({ hideError: true }),
    );
    expect(onlyCall('hub_emailConfirm')).toEqual({ code: CODE });
  });
});

describe('password reset', () => {
  it('asks for a link with purpose reset and says it was sent', async () => {
    fakeApi({ hub_sendResetPasswordMail: () => ({ sent: true }) });
    renderPage('/reset-password', <ResetPasswordPage />);
    await fillIn('Email', 'ada@example.com');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(calls('hub_sendResetPasswordMail')).toEqual([
      { email: 'ada@example.com', purpose: 'reset' },
    ]);
    expect(screen.getByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
  });

  it('names the page with an h1 while it checks the link', () => {
    rpc.mockImplementation(() => new Promise(() => {}));
    renderPage(`/set-password/checking?code=${CODE}`, <SetPasswordCheckingPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Checking your link…' })).toBeVisible();
  });

  it('goes on to the form when the code is valid', async () => {
    fakeApi({ hub_passwordResetCodeStatus: () => ({ status: 'valid', email: null }) });
    renderPage(`/reset-password/checking?code=${CODE}`, <ResetPasswordCheckingPage />);
    await expectLocation(`/reset-password/set?code=${CODE}`);
  });

  it('goes on to the set form for purpose set', async () => {
    fakeApi({ hub_passwordResetCodeStatus: () => ({ status: 'valid', email: null }) });
    renderPage(`/set-password/checking?code=${CODE}`, <SetPasswordCheckingPage />);
    await expectLocation(`/set-password/set?code=${CODE}`);
  });

  it.each([
    ['expired', 'This link has expired'],
    ['used', 'This link has already been used'],
    ['invalid', 'This link is not valid'],
  ] as const)('status %s offers a new link', async (status, title) => {
    fakeApi({ hub_passwordResetCodeStatus: () => ({ status, email: null }) });
    renderPage(`/reset-password/checking?code=${CODE}`, <ResetPasswordCheckingPage />);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request a new link' }));
    await expectLocation('/reset-password');
  });

  it('sends the new password hashed and confirms the reset', async () => {
    fakeApi({ hub_passwordReset: () => ({ success: true }) });
    renderPage(`/reset-password/set?code=${CODE}`, <ResetPasswordSetPage />);
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await fillIn('Password', 'brand-new-pass');
    await fillIn('Confirm password', 'brand-new-pass');
    await userEvent.keyboard('{Enter}');
    expect(
      await screen.findByRole('heading', { name: 'Your password has been reset' }),
    ).toBeInTheDocument();
    const params = onlyCall('hub_passwordReset');
    expect(params.code).toBe(CODE);
    expect(params.password).toBe(hashPassword('brand-new-pass'));
    expect(params.confirmPassword).toMatch(DIGEST);
    expect(JSON.stringify(rpc.mock.calls)).not.toContain('brand-new-pass');
  });

  it('says "Set your password" for purpose set and forgets a stale session afterwards', async () => {
    useSession.setState({ token: 'tok', user });
    fakeApi({
      hub_passwordReset: () => ({ success: true }),
      hub_logout: () => ({ success: true }),
    });
    renderPage(`/set-password/set?code=${CODE}`, <SetPasswordSetPage />);
    expect(screen.getByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    await fillIn('Password', 'brand-new-pass');
    await fillIn('Confirm password', 'brand-new-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(
      await screen.findByRole('heading', { name: 'Your password is set' }),
    ).toBeInTheDocument();
    expect(useSession.getState().token).toBeNull();
  });

  it('blocks a mismatched confirmation', async () => {
    fakeApi({});
    renderPage(`/reset-password/set?code=${CODE}`, <ResetPasswordSetPage />);
    await fillIn('Password', 'brand-new-pass');
    await fillIn('Confirm password', 'brand-new-pasz');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('swaps the form for a new-link state when the code is refused', async () => {
    fakeApi({
      hub_passwordReset: () => {
        throw apiError('hub_passwordReset', 10205);
      },
    });
    renderPage(`/reset-password/set?code=${CODE}`, <ResetPasswordSetPage />);
    await fillIn('Password', 'brand-new-pass');
    await fillIn('Confirm password', 'brand-new-pass');
    await userEvent.keyboard('{Enter}');
    expect(
      await screen.findByRole('heading', { name: 'This link is not valid' }),
    ).toBeInTheDocument();
  });
});

describe('FirstLoginPage', () => {
  it('requires the terms, then initialises the account and opens the console', async () => {
    useSession.setState({ token: 'tok', user: { ...user, initialize: false, acceptTerm: false } });
    fakeApi({
      hub_setUserAcceptTerm: () => ({ acceptTerm: true, initialize: true }),
      hub_getUserProfile: () => user,
    });
    renderPage('/first-login', <FirstLoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('Please accept the Terms of Service and Privacy Policy to continue.'),
    ).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await expectLocation('/rpc/endpoint');
    expect(calls('hub_setUserAcceptTerm')).toHaveLength(1);
    expect(useSession.getState().user?.initialize).toBe(true);
  });
});
