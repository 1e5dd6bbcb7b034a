/**
 * The profile's sign-in methods, two-factor sign-in and sessions against the shared fake API (params and answers
 * checked against the contract).
 */
import type { TMethodName, TParamsIn, TResult, TUserProfile } from '@rpc/contract';
import { ERROR_CATALOGUE, ERROR_CODES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { message } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { externalNavigation } from '../../lib/oauth-attempt';
import { hashPassword } from '../../lib/password';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { STORAGE_KEY } from '../../lib/storage-keys';
import type { TFakeHandlers } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { makePublicConfig, makeUser } from '../../test/fixtures';
import { ProfilePage } from './components/profile-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';
const SIGNATURE = `0x${'cd'.repeat(65)}`;
const BACKUP_CODES = Array.from({ length: 10 }, (_, i) => `c0d${i}-x${i}y${i}`);
const SESSION_HERE = '00000000-0000-4000-8000-000000000001';
const SESSION_THERE = '00000000-0000-4000-8000-000000000002';
const JAN_2026 = new Date(2026, 0, 15, 10, 30).getTime();

let user: TUserProfile;
let twoFactor: TResult<'hub_getTwoFactorStatus'>;
let sessions: TResult<'hub_getSessions'>['list'];
let handlers: TFakeHandlers;

function apiError(method: string, code: number, message = `error ${code}`) {
  return new RpcCallError(method, { code, message, messageZh: message });
}

function paramsOf<N extends TMethodName>(method: N) {
  return rpc.mock.calls
    .filter(([name]) => name === method)
    .map(([, params]) => params as TParamsIn<N>);
}

function renderProfile() {
  useSession.setState({ token: 'tok', user, loginType: 'personal', teamId: null });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/rpc/profile']}>
        <ProfilePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function fillIn(label: string, value: string, scope: HTMLElement = document.body) {
  const field = within(scope).getByLabelText(label);
  await userEvent.click(field);
  await userEvent.clear(field);
  await userEvent.paste(value);
}

/** The section under the h2 `title`. */
function section(title: string): HTMLElement {
  return screen.getByRole('heading', { level: 2, name: title }).closest('.ant-card')!;
}

/** Confirms the open Popconfirm with its `ok` button. */
async function confirm(ok: string) {
  const popup = await screen.findByRole('tooltip');
  await userEvent.click(within(popup).getByRole('button', { name: ok }));
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  user = makeUser();
  twoFactor = { enabled: false, enabledAt: null, backupCodesLeft: 0 };
  sessions = [];
  handlers = {
    hub_getConfig: () => makePublicConfig({ oauthProviders: [{ id: 'github', name: 'GitHub' }] }),
    hub_getTwoFactorStatus: () => twoFactor,
    hub_getSessions: () => ({ list: sessions }),
    hub_getUserProfile: () => user,
    hub_noPassword: () => ({ isNoPassword: user.isNoPassword, email: user.email }),
  };
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => handlers));
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Sign-in methods', () => {
  it('binds an e-mail address with the mailed code and a first password', async () => {
    user = makeUser({
      email: null,
      mailStatus: 0,
      isNoPassword: true,
      oauth: [{ provider: 'wallet', email: ADDRESS }],
    });
    handlers.hub_preBindEmail = (p: TParamsIn<'hub_preBindEmail'>) => ({
      available: p.email !== 'taken@example.com',
    });
    handlers.hub_sendBindConfirmMail = () => ({ sent: true, expiresAt: Date.now() + 900_000 });
    handlers.hub_bindEmail = (p: TParamsIn<'hub_bindEmail'>) => {
      user = { ...user, email: p.email, isNoPassword: false };
      return { email: p.email };
    };
    renderProfile();
    const methods = section('Sign-in methods');
    // The wallet is listed from the profile's oauth entry named "wallet" (its email field is the address).
    expect(within(methods).getByText(ADDRESS)).toBeInTheDocument();
    // No password yet: the change-password card is not offered.
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();

    await fillIn('E-mail address', 'taken@example.com', methods);
    await userEvent.tab();
    expect(
      await within(methods).findByText('This address belongs to another account.'),
    ).toBeInTheDocument();
    expect(within(methods).getByRole('button', { name: 'Send code' })).toBeDisabled();

    await fillIn('E-mail address', 'New@Example.com', methods);
    await userEvent.tab();
    expect(await within(methods).findByText('This address is available.')).toBeInTheDocument();
    await userEvent.click(within(methods).getByRole('button', { name: 'Send code' }));
    expect(await within(methods).findByRole('status')).toHaveTextContent(
      'We have sent a six-digit code to new@example.com',
    );
    expect(within(methods).getByRole('button', { name: /Send again in \d+ s/ })).toBeDisabled();
    expect(paramsOf('hub_sendBindConfirmMail')).toEqual([{ email: 'new@example.com' }]);

    await fillIn('Code from the e-mail', '123456', methods);
    await fillIn('Password', 'long-enough-1', methods);
    await fillIn('Confirm password', 'long-enough-1', methods);
    await userEvent.click(within(methods).getByRole('button', { name: 'Bind e-mail' }));
    await waitFor(() => expect(useSession.getState().user?.email).toBe('new@example.com'));
    expect(paramsOf('hub_bindEmail')).toEqual([
      {
        email: 'new@example.com',
        code: '123456',
        password: hashPassword('long-enough-1'),
        confirmPassword: hashPassword('long-enough-1'),
      },
    ]);
    expect(JSON.stringify(rpc.mock.calls)).not.toContain('long-enough-1');
    expect(paramsOf('hub_preBindEmail')).toContainEqual({ email: 'new@example.com' });
  });

  it('says plainly when unbinding would remove the only way to sign in (10214)', async () => {
    user = makeUser({
      email: null,
      isNoPassword: true,
      oauth: [{ provider: 'github', email: 'ada@users.github.example' }],
    });
    handlers.hub_unbindOauth = () => {
      throw apiError('hub_unbindOauth', 10214);
    };
    renderProfile();
    const methods = section('Sign-in methods');
    expect(
      await within(methods).findByText('Bound (ada@users.github.example)'),
    ).toBeInTheDocument();
    await userEvent.click(within(methods).getByRole('button', { name: 'Unbind GitHub' }));
    await confirm('Unbind');
    expect(await within(methods).findByRole('alert')).toHaveTextContent(
      'This is your only way to sign in.',
    );
    expect(paramsOf('hub_unbindOauth')).toEqual([{ provider: 'github' }]);
    // Said on the page, not in a popup: the call silences 10214.
    const options = rpc.mock.calls.find(([method]) => method === 'hub_unbindOauth')?.[2];
    expect(options?.silentCodes).toContain(10214);
  });

  it('binds a wallet by signing a bind message, and starts binding a provider', async () => {
    const wallet = vi.fn(async ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts') return [ADDRESS];
      if (method === 'eth_chainId') return '0x1';
      if (method === 'personal_sign') return SIGNATURE;
      throw new Error(method);
    });
    vi.stubGlobal('ethereum', { request: wallet });
    handlers.hub_getMetamaskNonce = () => ({ message: 'Sign to bind', expiresAt: Date.now() });
    handlers.hub_bindMetamask = () => {
      user = { ...user, oauth: [{ provider: 'wallet', email: ADDRESS }] };
      return { address: ADDRESS };
    };
    handlers.hub_getOauthBindUrl = () => ({
      url: 'https://github.example/authorize',
      state: 'state_abcdefghijklmnop',
    });
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => {});
    renderProfile();
    const methods = section('Sign-in methods');
    await userEvent.click(within(methods).getByRole('button', { name: 'Bind wallet' }));
    expect(await within(methods).findByText(ADDRESS)).toBeInTheDocument();
    expect(paramsOf('hub_getMetamaskNonce')).toEqual([
      { address: ADDRESS, chainId: 1, purpose: 'bind' },
    ]);
    expect(paramsOf('hub_bindMetamask')).toEqual([
      { message: 'Sign to bind', signature: SIGNATURE },
    ]);

    await userEvent.click(await within(methods).findByRole('button', { name: 'Bind GitHub' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://github.example/authorize'));
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEY.oauthAttempt)!)).toEqual({
      state: 'state_abcdefghijklmnop',
      provider: 'github',
      purpose: 'bind',
    });
  });
  it.each(['en', 'zh'] as const)(
    'says to sign in again when a binding comes over 15 minutes after sign-in (10225), as for an e-mail (%s)',
    async (lang) => {
      // The binding calls go through the real client (its popups) to a server answering 10225 with the
      // catalogue's texts, as hub_bindEmail's do; the rest stays on the fake API.
      const actual = await vi.importActual<typeof RpcClientModule>('../../lib/rpc-client');
      const refused = [
        'hub_bindMetamask',
        'hub_getOauthBindUrl',
      ] as const satisfies readonly TMethodName[];
      const fake = fakeRpc(() => handlers);
      rpc.mockImplementation(((method: TMethodName, params: never, options?: never) =>
        (refused as readonly string[]).includes(method)
          ? actual.callRpc(method, params, options)
          : fake(method, params)) as typeof callRpc);
      const { en, zh } = ERROR_CATALOGUE[ERROR_CODES.RECENT_SIGN_IN_REQUIRED];
      vi.stubGlobal(
        'fetch',
        vi.fn(async () =>
          Response.json({
            id: 1,
            error: { code: ERROR_CODES.RECENT_SIGN_IN_REQUIRED, message: en, messageZh: zh },
          }),
        ),
      );
      const popups = vi.spyOn(message, 'open').mockImplementation(((_args: unknown) =>
        Object.assign(() => {}, {
          then: () => Promise.resolve(true),
        })) as unknown as typeof message.open);
      const shown = () =>
        popups.mock.calls.map(([args]) => args as { type: string; content: string });
      vi.stubGlobal('ethereum', {
        request: vi.fn(async ({ method }: { method: string }) => {
          if (method === 'eth_requestAccounts') return [ADDRESS];
          if (method === 'eth_chainId') return '0x1';
          if (method === 'personal_sign') return SIGNATURE;
          throw new Error(method);
        }),
      });
      handlers.hub_getMetamaskNonce = () => ({ message: 'Sign to bind', expiresAt: Date.now() });
      const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => {});
      sessionStorage.clear();
      await act(() => i18n.changeLanguage(lang));
      const t = i18n.getFixedT(lang, 'profile');
      const text = lang === 'en' ? en : zh;
      renderProfile();
      const methods = section(t('methods.title'));

      await userEvent.click(
        within(methods).getByRole('button', { name: t('methods.wallet.bind') }),
      );
      await waitFor(() => expect(shown()).toEqual([{ type: 'error', content: text, duration: 5 }]));
      // Nothing else said (no wallet failure), nothing bound, and the user can try again.
      expect(within(methods).queryByRole('alert')).toBeNull();
      expect(within(methods).queryByText(ADDRESS)).toBeNull();
      expect(
        within(methods).getByRole('button', { name: t('methods.wallet.bind') }),
      ).not.toHaveClass('ant-btn-loading');

      await userEvent.click(
        await within(methods).findByRole('button', {
          name: t('methods.providers.bindLabel', { provider: 'GitHub' }),
        }),
      );
      await waitFor(() => expect(shown()).toHaveLength(2));
      expect(shown()[1]).toEqual({ type: 'error', content: text, duration: 5 });
      // No trip to the provider, and no attempt left for /bind/callback.
      expect(assign).not.toHaveBeenCalled();
      expect(sessionStorage.getItem(STORAGE_KEY.oauthAttempt)).toBeNull();
    },
  );
});

describe('Two-factor sign-in', () => {
  it('turns on with a QR code and the key, then shows the backup codes once', async () => {
    const otpauthUrl = 'otpauth://totp/RPC%20Console:ada%40example.com?secret=JBSWY3DPEHPK3PXP';
    handlers.hub_startTwoFactorSetup = () => ({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl });
    handlers.hub_enableTwoFactor = (p: TParamsIn<'hub_enableTwoFactor'>) => {
      if (p.code !== '654321') throw apiError('hub_enableTwoFactor', 10220);
      // Sent as its digest (SPEC §5), never plain.
      if (p.password !== hashPassword('my password')) throw apiError('hub_enableTwoFactor', 10207);
      twoFactor = { enabled: true, enabledAt: JAN_2026, backupCodesLeft: 10 };
      return { backupCodes: BACKUP_CODES, endedSessions: 2 };
    };
    const downloads: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        downloads.push(blob);
        return 'blob:codes';
      },
      revokeObjectURL: () => {},
    });
    renderProfile();
    const card = section('Two-factor sign-in');
    await userEvent.click(
      await within(card).findByRole('button', { name: 'Turn on two-factor sign-in' }),
    );
    expect(
      await within(card).findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(within(card).getByRole('button', { name: 'Copy key' })).toBeInTheDocument();

    // The password is asked with the code: a stolen session alone cannot turn it on.
    await fillIn('Code from the app', '654321', card);
    await userEvent.click(within(card).getByRole('button', { name: 'Turn on' }));
    expect(
      await within(card).findByText('Please enter your current password.'),
    ).toBeInTheDocument();
    expect(paramsOf('hub_enableTwoFactor')).toEqual([]);
    expect(
      within(card).getByText(
        'To confirm it is you, enter your password too. Your other sessions will be signed out.',
      ),
    ).toBeInTheDocument();

    await fillIn('Current password', 'wrong password', card);
    await userEvent.click(within(card).getByRole('button', { name: 'Turn on' }));
    expect(await within(card).findByText('The current password is wrong.')).toBeInTheDocument();
    expect(within(card).getByLabelText('Current password')).toHaveValue('');

    await fillIn('Code from the app', '000000', card);
    await fillIn('Current password', 'my password', card);
    await userEvent.click(within(card).getByRole('button', { name: 'Turn on' }));
    expect(
      await within(card).findByText(
        'The code is wrong. Check the time on your phone and try again.',
      ),
    ).toBeInTheDocument();
    await fillIn('Code from the app', '654321', card);
    await userEvent.click(within(card).getByRole('button', { name: 'Turn on' }));

    const list = await within(card).findByRole('list', { name: 'Backup codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(BACKUP_CODES);
    expect(within(card).getByText('Save your backup codes now')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Download as a text file' }));
    expect(await downloads[0]!.text()).toBe(`${BACKUP_CODES.join('\n')}\n`);

    await userEvent.click(within(card).getByRole('button', { name: 'I have saved them' }));
    expect(await within(card).findByText(/On since 2026-01-15 10:30\./)).toBeInTheDocument();
    expect(within(card).getByText(/10 backup codes left\./)).toBeInTheDocument();
    expect(within(card).queryByRole('list', { name: 'Backup codes' })).not.toBeInTheDocument();
  });

  it('asks a user without a password for no password when turning it on', async () => {
    user = makeUser({ email: null, isNoPassword: true });
    handlers.hub_startTwoFactorSetup = () => ({
      secret: 'JBSWY3DPEHPK3PXP',
      otpauthUrl: 'otpauth://totp/RPC%20Console:user?secret=JBSWY3DPEHPK3PXP',
    });
    handlers.hub_enableTwoFactor = () => {
      twoFactor = { enabled: true, enabledAt: JAN_2026, backupCodesLeft: 10 };
      return { backupCodes: BACKUP_CODES, endedSessions: 0 };
    };
    renderProfile();
    const card = section('Two-factor sign-in');
    await userEvent.click(
      await within(card).findByRole('button', { name: 'Turn on two-factor sign-in' }),
    );
    await fillIn('Code from the app', '654321', card);
    expect(within(card).getByText('Your other sessions will be signed out.')).toBeInTheDocument();
    expect(within(card).queryByLabelText('Current password')).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Turn on' }));
    expect(await within(card).findByRole('list', { name: 'Backup codes' })).toBeInTheDocument();
    expect(paramsOf('hub_enableTwoFactor')).toEqual([{ code: '654321' }]);
  });

  it('turns off with a code asked in the shared prompt, which keeps a wrong code', async () => {
    twoFactor = { enabled: true, enabledAt: JAN_2026, backupCodesLeft: 7 };
    handlers.hub_disableTwoFactor = (p: TParamsIn<'hub_disableTwoFactor'>) => {
      if (p.code !== 'ab12-cd34') throw apiError('hub_disableTwoFactor', 10220);
      twoFactor = { enabled: false, enabledAt: null, backupCodesLeft: 0 };
      return { success: true };
    };
    renderProfile();
    const card = section('Two-factor sign-in');
    await userEvent.click(await within(card).findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await fillIn('Two-factor code', '111111', dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(
      await within(dialog).findByText('The code is wrong. Please try again.'),
    ).toBeInTheDocument();
    await fillIn('Two-factor code', 'ab12-cd34', dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(
      await within(card).findByRole('button', { name: 'Turn on two-factor sign-in' }),
    ).toBeInTheDocument();
    expect(paramsOf('hub_disableTwoFactor')).toEqual([{ code: '111111' }, { code: 'ab12-cd34' }]);
  });

  it('asks for a code when the password change needs one (10219), then retries with it', async () => {
    handlers.hub_changePassword = (p: TParamsIn<'hub_changePassword'>) => {
      if (!p.twoFactorCode) throw apiError('hub_changePassword', 10219);
      return { success: true };
    };
    renderProfile();
    await fillIn('Current password', 'old-password');
    await fillIn('New password', 'new-password-1');
    await fillIn('Confirm password', 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm with your two-factor code' });
    await fillIn('Two-factor code', '123456', dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(paramsOf('hub_changePassword')).toHaveLength(2));
    expect(paramsOf('hub_changePassword')[1]).toMatchObject({ twoFactorCode: '123456' });
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
  });
});

describe('Sessions', () => {
  beforeEach(() => {
    sessions = [
      {
        id: SESSION_HERE,
        createdAt: JAN_2026,
        lastSeenAt: JAN_2026 + 60_000,
        expiresAt: JAN_2026 + 30 * 86_400_000,
        ip: '203.0.113.7',
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        method: 'password',
        current: true,
      },
      {
        id: SESSION_THERE,
        createdAt: JAN_2026 - 86_400_000,
        lastSeenAt: null,
        expiresAt: JAN_2026 + 29 * 86_400_000,
        ip: '198.51.100.4',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
        method: 'github',
        current: false,
      },
    ];
  });

  it('lists the sessions in plain words and signs one out after confirming', async () => {
    handlers.hub_revokeSession = (p: TParamsIn<'hub_revokeSession'>) => {
      sessions = sessions.filter((session) => session.id !== p.sessionId);
      return { success: true };
    };
    renderProfile();
    const card = section('Sessions');
    const here = (await within(card).findByText('Chrome on Windows')).closest('tr')!;
    expect(within(here).getByText('This device')).toBeInTheDocument();
    expect(within(here).getByText('E-mail and password')).toBeInTheDocument();
    expect(within(here).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    const there = within(card).getByText('Firefox on Linux').closest('tr')!;
    expect(within(there).getByText('198.51.100.4')).toBeInTheDocument();
    expect(within(there).getByText('GitHub')).toBeInTheDocument();

    await userEvent.click(within(there).getByRole('button', { name: 'Sign out' }));
    expect(paramsOf('hub_revokeSession')).toHaveLength(0);
    await confirm('Sign out');
    await waitFor(() =>
      expect(within(card).queryByText('Firefox on Linux')).not.toBeInTheDocument(),
    );
    expect(paramsOf('hub_revokeSession')).toEqual([{ sessionId: SESSION_THERE }]);
  });

  it('signs out every other session after confirming', async () => {
    handlers.hub_revokeOtherSessions = () => {
      sessions = sessions.filter((session) => session.current);
      return { revoked: 1 };
    };
    renderProfile();
    const card = section('Sessions');
    await within(card).findByText('Firefox on Linux');
    await userEvent.click(
      within(card).getByRole('button', { name: 'Sign out all other sessions' }),
    );
    await confirm('Sign out all other sessions');
    await waitFor(() => expect(paramsOf('hub_revokeOtherSessions')).toEqual([{}]));
    await waitFor(() =>
      expect(
        within(card).getByRole('button', { name: 'Sign out all other sessions' }),
      ).toBeDisabled(),
    );
  });
});
