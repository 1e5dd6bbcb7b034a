/** The profile page against a fake request client: only callRpc (the network boundary) is replaced. */
import type { TMethodName, TParamsIn, TUserProfile } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { hashPassword } from '../../lib/password';
import { useSession } from '../../lib/session';
import { ProfilePage } from './components/profile-page';
import { formatDateTime } from '../../lib/format-date-time';
import { makePublicConfig, makeUser } from '../../test/fixtures';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const DIGEST = /^[0-9a-f]{32}$/;

const user = makeUser({
  id: 'u-42',
  accountId: 'a-42',
  createdAt: new Date(2026, 0, 2, 3, 4).getTime(),
});

type THandlers = Partial<Record<TMethodName, (params: unknown) => unknown>>;

/** What the page reads on its own (config, two-factor status, sessions); the sections are tested elsewhere. */
const PAGE_READS: THandlers = {
  hub_getConfig: () => makePublicConfig(),
  hub_getTwoFactorStatus: () => ({ enabled: false, enabledAt: null, backupCodesLeft: 0 }),
  hub_getSessions: () => ({ list: [] }),
};

function fakeApi(handlers: THandlers) {
  rpc.mockImplementation(async (method, params) => {
    const handler = handlers[method] ?? PAGE_READS[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return handler(params) as never;
  });
}

/** No call but the page's own reads. */
function expectNoWrites() {
  expect(rpc.mock.calls.map(([method]) => method).filter((m) => !(m in PAGE_READS))).toEqual([]);
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

function renderProfile(signedInUser: TUserProfile | null = user) {
  useSession.setState({ token: 'tok', user: signedInUser, loginType: 'personal', teamId: null });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/rpc/profile']}>
        <Routes>
          <Route path="/rpc/profile" element={<ProfilePage />} />
          <Route path="/zh/rpc/profile" element={<ProfilePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Pasting instead of typing key by key keeps Ant Design forms fast under jsdom. */
async function fillIn(label: string, value: string) {
  const field = screen.getByLabelText(label);
  await userEvent.click(field);
  await userEvent.clear(field);
  if (value) await userEvent.paste(value);
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  rpc.mockReset();
  await act(() => i18n.changeLanguage('en'));
});

describe('formatDateTime', () => {
  it('writes YYYY-MM-DD HH:mm and a dash for nothing', () => {
    expect(formatDateTime(new Date(2026, 10, 5, 9, 7).getTime())).toBe('2026-11-05 09:07');
    expect(formatDateTime(null)).toBe('-');
  });
});

describe('ProfilePage', () => {
  it('shows skeletons until the user is known', () => {
    fakeApi({});
    renderProfile(null);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your profile…');
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument();
  });

  it('shows the account details', () => {
    fakeApi({});
    renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('u-42')).toBeInTheDocument();
    expect(screen.getByText('2026-01-02 03:04')).toBeInTheDocument();
    expect(screen.getByText('Confirmed')).toBeInTheDocument();
  });

  it('validates the nickname with the contract schema, saves it and refreshes the user', async () => {
    fakeApi({
      hub_setUserNickname: (params) => params,
      hub_getUserProfile: () => ({ ...user, nickname: 'Countess' }),
    });
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Edit nickname' }));
    expect(screen.getByLabelText('Nickname')).toHaveFocus();
    await fillIn('Nickname', '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Save nickname' }));
    expect(await screen.findByText('Please enter a nickname.')).toBeInTheDocument();
    await fillIn('Nickname', 'x'.repeat(33));
    await userEvent.keyboard('{Enter}');
    expect(
      await screen.findByText('The nickname can have at most 32 characters.'),
    ).toBeInTheDocument();
    expectNoWrites();

    await fillIn('Nickname', '  Countess ');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Countess')).toBeInTheDocument();
    expect(calls('hub_setUserNickname')).toEqual([{ nickname: 'Countess' }]);
    expect(calls('hub_getUserProfile')).toHaveLength(1);
  });

  it('changes the password with every field hashed', async () => {
    fakeApi({ hub_changePassword: () => ({ success: true }) });
    renderProfile();
    await fillIn('Current password', 'old-password');
    await fillIn('New password', 'new-password-1');
    await fillIn('Confirm password', 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(calls('hub_changePassword')).toHaveLength(1));
    const params = onlyCall('hub_changePassword');
    expect(params.oldPassword).toBe(hashPassword('old-password'));
    expect(params.password).toMatch(DIGEST);
    expect(params.confirmPassword).toBe(params.password);
    expect(JSON.stringify(rpc.mock.calls)).not.toMatch(/old-password|new-password-1/);
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
  });

  it('blocks a mismatched confirmation', async () => {
    fakeApi({});
    renderProfile();
    await fillIn('Current password', 'old-password');
    await fillIn('New password', 'new-password-1');
    await fillIn('Confirm password', 'new-password-2');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expectNoWrites();
  });

  it('marks a wrong current password on its field', async () => {
    fakeApi({
      hub_changePassword: () => {
        throw new RpcCallError('hub_changePassword', {
          code: 10207,
          message: 'The current password is wrong.',
          messageZh: '当前密码错误。',
        });
      },
    });
    renderProfile();
    await fillIn('Current password', 'old-password');
    await fillIn('New password', 'new-password-1');
    await fillIn('Confirm password', 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong.')).toBeInTheDocument();
  });

  it('mails a set-password link to a user without a password', async () => {
    fakeApi({ hub_sendResetPasswordMail: () => ({ sent: true }) });
    renderProfile({ ...user, isNoPassword: true });
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(calls('hub_sendResetPasswordMail')).toEqual([
        { email: 'ada@example.com', purpose: 'set' },
      ]),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Set password' })).toBeDisabled(),
    );
  });

  it('turns the top-up reminders off, in plain words', async () => {
    fakeApi({
      hub_setRechargeTips: (params) => params,
      hub_getUserProfile: () => ({ ...user, rechargeTips: 0 }),
    });
    renderProfile();
    const toggle = screen.getByRole('switch', { name: 'Remind me to top up' });
    expect(toggle).toBeChecked();
    // The old jargon is gone (issue item 11).
    expect(screen.queryByText(/recharge tips/i)).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Choose which notices are also sent by e-mail' }),
    ).toHaveAttribute('href', '/rpc/notifications#email-preferences');
    await userEvent.click(toggle);
    await waitFor(() => expect(calls('hub_setRechargeTips')).toEqual([{ rechargeTips: 0 }]));
    await waitFor(() => expect(calls('hub_getUserProfile')).toHaveLength(1));
    expect(screen.getByRole('switch', { name: 'Remind me to top up' })).not.toBeChecked();
  });

  it('switches the language and tells the server', async () => {
    fakeApi({ hub_changeUserLang: () => ({ language: 'zh' }) });
    renderProfile();
    await userEvent.click(screen.getByRole('combobox', { name: 'Preferred language' }));
    await userEvent.click(await screen.findByTitle('中文'));
    expect(await screen.findByRole('heading', { level: 1, name: '个人资料' })).toBeInTheDocument();
    await waitFor(() => expect(calls('hub_changeUserLang')).toEqual([{ lang: 'zh' }]));
  });
});
