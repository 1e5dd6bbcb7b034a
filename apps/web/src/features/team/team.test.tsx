/**
 * The team screens against the shared fake API (every call's params and every answer checked against the
 * contract): choosing the acting account, managing a team as the role allows, inviting, disbanding, answering an
 * invitation, the audit log, and the header switcher.
 */
import { ERROR_CATALOGUE, ERROR_CODES } from '@rpc/contract';
import type {
  TMethodName,
  TMyInvite,
  TNotice,
  TParamsIn,
  TTeam,
  TTeamLog,
  TTeamMember,
  TTeamRole,
} from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import Cookies from 'js-cookie';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamSwitcher } from '../../components/team-switcher';
import { useCan } from '../../lib/acting-account';
import { i18n, initI18n } from '../../lib/i18n';
import { receiveNotice } from '../../lib/notices';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc, RpcCallError } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { COOKIE } from '../../lib/storage-keys';
import type { TFakeHandler } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { makeUser } from '../../test/fixtures';
import { getMyTeamsQueryOptions } from './api/get-my-teams';
import { wireTeams } from './api/wire-teams';
import { ChooseTeamPage } from './components/choose-team-page';
import { InviteMemberPage } from './components/invite-member-page';
import { TeamLogsPage } from './components/team-logs-page';
import { TeamPage } from './components/team-page';
import { BillingChargePage } from '../billing/components/billing-charge-page';
import { BillingInvoicePage } from '../billing/components/billing-invoice-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const T1 = uuid(1);
const T2 = uuid(2);
const JAN_2026 = new Date(2026, 0, 15, 10, 30).getTime();

function makeTeam(teamId: string, teamName: string, role: TTeamRole): TTeam {
  return {
    teamId,
    teamName,
    note: `${teamName} note`,
    role,
    memberCount: 3,
    ownerName: 'Olga',
    createdAt: JAN_2026,
    joinedAt: JAN_2026,
  };
}

function member(n: number, nickname: string, role: TTeamRole, isYou = false): TTeamMember {
  return {
    userId: uuid(100 + n),
    nickname,
    email: `${nickname.toLowerCase()}@example.com`,
    role,
    joinedAt: JAN_2026,
    isYou,
  };
}

function log(n: number, action: string): TTeamLog {
  return {
    id: String(n),
    action,
    actorUserId: uuid(101),
    actorName: 'Olga',
    target: `target ${n}`,
    detail: {},
    ip: '203.0.113.7',
    createdAt: JAN_2026 - n * 60_000,
  };
}

let teams: TTeam[];
let members: TTeamMember[];
let logs: TTeamLog[];
let myInvites: TMyInvite[];
let overrides: Partial<Record<TMethodName, TFakeHandler>>;

const handlers: Partial<Record<TMethodName, TFakeHandler>> = {
  hub_getMyTeam: () => ({ list: teams, total: teams.length, page: 1, perPage: 1000 }),
  hub_getTeamMembers: () => ({ list: members }),
  hub_getTeamInvites: () => ({ list: [] }),
  hub_getUserCode: () => ({ userCode: 'ABCDE12345' }),
  hub_getUserProfile: () => useSession.getState().user,
  hub_addMember: (p: TParamsIn<'hub_addMember'>) => ({
    inviteId: uuid(900),
    invitee: p.email ?? p.userCode ?? '',
    role: p.role ?? 'viewer',
    invitedBy: 'Olga',
    createdAt: JAN_2026,
    expiresAt: JAN_2026 + 7 * 86_400_000,
  }),
  hub_deleteTeam: () => ({ success: true }),
  hub_leaveTeam: () => ({ success: true }),
  hub_getTeamLogs: (p: TParamsIn<'hub_getTeamLogs'>) => {
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 20;
    const found = logs.filter((l) => !p.action || l.action === p.action);
    return {
      list: found.slice((page - 1) * perPage, page * perPage),
      total: found.length,
      page,
      perPage,
    };
  },
  hub_getMyInvite: () => ({ list: myInvites }),
  hub_approveInvite: (p: TParamsIn<'hub_approveInvite'>) => {
    const invite = myInvites.find((i) => i.inviteId === p.inviteId)!;
    myInvites = myInvites.filter((i) => i !== invite);
    const user = useSession.getState().user!;
    useSession.setState({
      user: {
        ...user,
        teamList: [
          ...user.teamList,
          { teamId: invite.teamId, teamName: invite.teamName, role: invite.role },
        ],
      },
    });
    return { teamId: invite.teamId, teamName: invite.teamName, role: invite.role };
  },
  hub_getTeamUserProfile: () => ({
    ...teams[0]!,
    permissions: teams[0]!.role === 'viewer' ? ['self', 'view'] : ['self', 'view', 'keys'],
  }),
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{`${pathname}${search}`}</output>;
}

function renderAt(path: string, Page: ComponentType, queryClient = newQueryClient()) {
  render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="*" element={<Page />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

function newQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

const location = () => screen.getByRole('status', { name: 'location' });

function signIn(
  over: Parameters<typeof makeUser>[0] = {},
  acting: { loginType: 'personal' | 'team' | null; teamId: string | null } = {
    loginType: 'personal',
    teamId: null,
  },
) {
  useSession.setState({ token: 'tok', user: makeUser(over), ...acting });
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  teams = [makeTeam(T1, 'Acme', 'owner'), makeTeam(T2, 'Globex', 'viewer')];
  members = [
    member(1, 'Olga', 'owner', true),
    member(2, 'Adam', 'admin'),
    member(3, 'Vera', 'viewer'),
  ];
  logs = Array.from({ length: 7 }, (_, i) =>
    log(i + 1, i === 0 ? 'hub_generateApiKey' : i === 1 ? 'hub_somethingNew' : 'hub_addMember'),
  );
  myInvites = [];
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  signIn();
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  Cookies.remove(COOKIE.teamId, { path: '/' });
  Cookies.remove(COOKIE.loginType, { path: '/' });
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  vi.restoreAllMocks();
});

describe('choose-team', () => {
  const teamList = [
    { teamId: T1, teamName: 'Acme', role: 'owner' as const },
    { teamId: T2, teamName: 'Globex', role: 'viewer' as const },
  ];

  it('offers a personal user the personal account and each team with the role', async () => {
    signIn({ teamList, hasTeam: true }, { loginType: null, teamId: null });
    renderAt('/choose-team', ChooseTeamPage);
    const list = screen.getByRole('list', { name: 'Accounts' });
    const groups = within(list).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-labelledby') && g.textContent)).toHaveLength(3);
    expect(within(groups[0]!).getByText('Personal account')).toBeInTheDocument();
    expect(within(groups[1]!).getByText('Acme')).toBeInTheDocument();
    expect(within(groups[1]!).getByText('Owner')).toBeInTheDocument();
    expect(within(groups[2]!).getByText('Viewer')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Continue as Globex' }));
    expect(useSession.getState()).toMatchObject({ loginType: 'team', teamId: T2 });
    expect(Cookies.get(COOKIE.teamId)).toBe(T2);
    expect(location()).toHaveTextContent('/rpc/endpoint');
  });

  it('choosing personal forgets the team cookie, so no call carries X-Team-Id', async () => {
    Cookies.set(COOKIE.teamId, T1);
    signIn({ teamList, hasTeam: true }, { loginType: 'team', teamId: T1 });
    renderAt('/choose-team', ChooseTeamPage);
    expect(screen.getByText('Current')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue as Personal account' }));
    expect(useSession.getState()).toMatchObject({ loginType: 'personal', teamId: null });
    expect(Cookies.get(COOKIE.teamId)).toBeUndefined();
    expect(Cookies.get(COOKIE.loginType)).toBe('personal');
  });

  it('gives a team-type user only the teams', () => {
    signIn({ teamList, userType: 'team', hasTeam: true }, { loginType: null, teamId: null });
    renderAt('/choose-team', ChooseTeamPage);
    expect(screen.queryByText('Personal account')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue as Acme' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue as Globex' })).toBeInTheDocument();
  });
});

describe('team page', () => {
  it('gives the owner every control', async () => {
    renderAt('/rpc/team', TeamPage);
    const details = await screen.findByRole('region', { name: /^Acme/ });
    expect(within(details).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(details).getByRole('button', { name: 'Disband team' })).toBeInTheDocument();
    expect(within(details).queryByRole('button', { name: 'Leave team' })).not.toBeInTheDocument();
    expect(within(details).getByRole('link', { name: 'Team logs' })).toHaveAttribute(
      'href',
      `/rpc/team/logs?teamId=${T1}`,
    );
    const membersRegion = screen.getByRole('region', { name: 'Members' });
    await within(membersRegion).findByText('Adam');
    // Roles of lower members can change; nobody acts on themselves.
    expect(
      within(membersRegion).getByRole('combobox', { name: 'Role of Adam' }),
    ).toBeInTheDocument();
    expect(within(membersRegion).queryByRole('combobox', { name: 'Role of Olga' })).toBeNull();
    expect(within(membersRegion).getByRole('button', { name: 'Remove Vera' })).toBeInTheDocument();
    expect(within(membersRegion).queryByRole('button', { name: 'Remove Olga' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Invitations' })).toBeInTheDocument();
    expect(await screen.findByText('ABCDE12345')).toBeInTheDocument();
    expect(calls('hub_getTeamMembers')).toContainEqual({ teamId: T1 });
    expect(calls('hub_getTeamInvites')).toContainEqual({ teamId: T1 });
  });

  it('gives a viewer the members to look at and a way to leave, nothing else', async () => {
    renderAt('/rpc/team', TeamPage);
    await userEvent.click(await screen.findByRole('button', { name: 'Manage Globex' }));
    const details = await screen.findByRole('region', { name: /^Globex/ });
    expect(within(details).getByRole('button', { name: 'Leave team' })).toBeInTheDocument();
    for (const name of ['Edit', 'Disband team']) {
      expect(within(details).queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(within(details).queryByRole('link', { name: 'Team logs' })).not.toBeInTheDocument();
    const membersRegion = screen.getByRole('region', { name: 'Members' });
    await within(membersRegion).findByText('Adam');
    expect(within(membersRegion).queryByRole('combobox')).toBeNull();
    expect(within(membersRegion).queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument();
    expect(calls('hub_getTeamInvites')).not.toContainEqual({ teamId: T2 });
    expect(calls('hub_getTeamMembers')).toContainEqual({ teamId: T2 });
  });

  it('opens on the team the console acts for', async () => {
    signIn(
      { teamList: [{ teamId: T2, teamName: 'Globex', role: 'viewer' }] },
      { loginType: 'team', teamId: T2 },
    );
    renderAt('/rpc/team', TeamPage);
    expect(await screen.findByRole('region', { name: /^Globex/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage Globex' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('checks the invitation form and sends e-mail or user code with the role', async () => {
    renderAt('/rpc/team', TeamPage);
    const invites = await screen.findByRole('region', { name: 'Invitations' });
    const send = within(invites).getByRole('button', { name: 'Send invitation' });

    await userEvent.click(send);
    expect(await within(invites).findByText('Enter an e-mail address.')).toBeInTheDocument();
    const email = within(invites).getByRole('textbox', { name: 'E-mail address' });
    await userEvent.type(email, 'not-an-address');
    await userEvent.click(send);
    expect(await within(invites).findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(calls('hub_addMember')).toHaveLength(0);

    await userEvent.clear(email);
    await userEvent.type(email, ' New.Person@Example.com ');
    await userEvent.click(send);
    await waitFor(() =>
      expect(calls('hub_addMember')).toEqual([
        { teamId: T1, email: 'new.person@example.com', role: 'viewer' },
      ]),
    );

    // antd draws the radio as a button: its label takes the click.
    await userEvent.click(within(invites).getByText('User code'));
    expect(within(invites).getByRole('radio', { name: 'User code' })).toBeChecked();
    const code = within(invites).getByRole('textbox', { name: 'User code' });
    await userEvent.type(code, 'abc');
    await userEvent.click(send);
    expect(
      await within(invites).findByText('A user code has 10 letters and digits.'),
    ).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, 'abcde12345');
    await userEvent.click(within(invites).getByRole('combobox', { name: 'Role' }));
    await userEvent.click((await screen.findAllByTitle('Admin')).at(-1)!);
    await userEvent.click(send);
    await waitFor(() =>
      expect(calls('hub_addMember').at(-1)).toEqual({
        teamId: T1,
        userCode: 'ABCDE12345',
        role: 'admin',
      }),
    );
  });

  it('offers an admin only the roles below admin to invite with; the owner all three', async () => {
    teams = [makeTeam(T1, 'Acme', 'admin')];
    renderAt('/rpc/team', TeamPage);
    const invites = await screen.findByRole('region', { name: 'Invitations' });
    await userEvent.click(within(invites).getByRole('combobox', { name: 'Role' }));
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(['Billing', 'Viewer']);
  });

  it('disbands only after the team name is typed', async () => {
    renderAt('/rpc/team', TeamPage);
    const details = await screen.findByRole('region', { name: /^Acme/ });
    await userEvent.click(within(details).getByRole('button', { name: 'Disband team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disband Acme?' });
    expect(
      within(dialog).getByText("The team's API keys stop working at once."),
    ).toBeInTheDocument();
    const ok = within(dialog).getByRole('button', { name: 'Disband' });
    expect(ok).toBeDisabled();
    const input = within(dialog).getByRole('textbox', { name: 'Team name to confirm' });
    await userEvent.type(input, 'Acm');
    expect(ok).toBeDisabled();
    await userEvent.type(input, 'e');
    expect(ok).toBeEnabled();
    await userEvent.click(ok);
    await waitFor(() => expect(calls('hub_deleteTeam')).toEqual([{ teamId: T1 }]));
  });

  it('says where money left goes; a refusal (arrears) keeps the dialog open and the team listed', async () => {
    overrides.hub_deleteTeam = () => {
      throw new RpcCallError('hub_deleteTeam', {
        code: ERROR_CODES.TEAM_IN_ARREARS,
        message: ERROR_CATALOGUE[ERROR_CODES.TEAM_IN_ARREARS].en,
        messageZh: ERROR_CATALOGUE[ERROR_CODES.TEAM_IN_ARREARS].zh,
      });
    };
    renderAt('/rpc/team', TeamPage);
    const details = await screen.findByRole('region', { name: /^Acme/ });
    await userEvent.click(within(details).getByRole('button', { name: 'Disband team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disband Acme?' });
    expect(
      within(dialog).getByText(
        "Money left in the team's wallet moves to your personal wallet. Arrears must be paid off first.",
      ),
    ).toBeInTheDocument();
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Team name to confirm' }),
      'Acme',
    );
    const ok = within(dialog).getByRole('button', { name: 'Disband' });
    await userEvent.click(ok);
    await waitFor(() => expect(calls('hub_deleteTeam')).toEqual([{ teamId: T1 }]));
    // The call is over (the request client has shown the catalogue's message) and nothing closed.
    await waitFor(() => expect(ok).not.toHaveClass('ant-btn-loading'));
    expect(screen.getByRole('dialog', { name: 'Disband Acme?' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /^Acme/ })).toBeInTheDocument();
  });

  it('leaving the team the console acts for resets the acting account', async () => {
    Cookies.set(COOKIE.teamId, T2);
    Cookies.set(COOKIE.loginType, 'team');
    signIn(
      { teamList: [{ teamId: T2, teamName: 'Globex', role: 'viewer' }] },
      { loginType: 'team', teamId: T2 },
    );
    overrides.hub_getUserProfile = () => makeUser({ teamList: [] });
    renderAt('/rpc/team', TeamPage);
    const details = await screen.findByRole('region', { name: /^Globex/ });
    await userEvent.click(within(details).getByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(calls('hub_leaveTeam')).toEqual([{ teamId: T2 }]));
    await waitFor(() => expect(location()).toHaveTextContent('/rpc/endpoint'));
    expect(useSession.getState()).toMatchObject({ loginType: null, teamId: null });
    expect(useSession.getState().user?.teamList).toEqual([]);
    expect(Cookies.get(COOKIE.teamId)).toBeUndefined();
    expect(Cookies.get(COOKIE.loginType)).toBeUndefined();
  });
});

describe('team logs', () => {
  it('pages and filters the log of the chosen team, with readable actions', async () => {
    renderAt(`/rpc/team/logs?teamId=${T1}`, TeamLogsPage);
    const table = await screen.findByRole('region', { name: 'Audit log' });
    expect(await within(table).findByText('Created an API key')).toBeInTheDocument();
    // An action without a label is shown as it is.
    expect(within(table).getByText('hub_somethingNew')).toBeInTheDocument();
    expect(within(table).getAllByText('Invited a member')).toHaveLength(3);
    expect(within(table).getByText('7 entries')).toBeInTheDocument();
    expect(calls('hub_getTeamLogs')[0]).toEqual({ teamId: T1, page: 1, perPage: 5 });

    await userEvent.click(within(table).getByRole('listitem', { name: '2' }));
    await waitFor(() =>
      expect(calls('hub_getTeamLogs').at(-1)).toEqual({ teamId: T1, page: 2, perPage: 5 }),
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click((await screen.findAllByTitle('Invited a member')).at(-1)!);
    await waitFor(() =>
      expect(calls('hub_getTeamLogs').at(-1)).toEqual({
        teamId: T1,
        page: 1,
        perPage: 5,
        action: 'hub_addMember',
      }),
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'Member' }));
    await userEvent.click((await screen.findAllByTitle('Adam (adam@example.com)')).at(-1)!);
    await waitFor(() =>
      expect(calls('hub_getTeamLogs').at(-1)).toEqual({
        teamId: T1,
        page: 1,
        perPage: 5,
        action: 'hub_addMember',
        actorUserId: uuid(102),
      }),
    );
  });

  it('explains to a viewer that only owners and admins read the log, and asks nothing', async () => {
    renderAt(`/rpc/team/logs?teamId=${T2}`, TeamLogsPage);
    expect(
      await screen.findByText("Only owners and admins can read this team's log"),
    ).toBeInTheDocument();
    expect(screen.getByText(/Your role in this team is Viewer/)).toBeInTheDocument();
    expect(calls('hub_getTeamLogs')).toHaveLength(0);
  });

  it('labels actions in Chinese too', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt(`/zh/rpc/team/logs?teamId=${T1}`, TeamLogsPage);
    const table = await screen.findByRole('region', { name: '审计日志' });
    expect(await within(table).findByText('创建了 API Key')).toBeInTheDocument();
  });
});

describe('invite-member', () => {
  it('signed out: offers sign-in that comes back here, and registration', () => {
    useSession.setState({ token: null, user: null, loginType: null, teamId: null });
    renderAt('/invite-member', InviteMemberPage);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/?redirect=%2Finvite-member',
    );
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(rpc).not.toHaveBeenCalled();
  });

  it('shows an empty state when nothing is waiting', async () => {
    renderAt('/invite-member', InviteMemberPage);
    expect(await screen.findByText('No invitations are waiting for you.')).toBeInTheDocument();
  });

  it('accepts an invitation, refreshes the team list and switches to the team', async () => {
    myInvites = [
      {
        inviteId: uuid(500),
        teamId: T2,
        teamName: 'Globex',
        invitedBy: 'Hank',
        role: 'billing',
        createdAt: JAN_2026,
        expiresAt: JAN_2026 + 7 * 86_400_000,
      },
    ];
    renderAt('/invite-member', InviteMemberPage);
    const card = await screen.findByRole('article', { name: 'Globex' });
    expect(within(card).getByText('Billing')).toBeInTheDocument();
    expect(within(card).getByText('Invited by Hank')).toBeInTheDocument();
    expect(within(card).getByText('Expires 2026-01-22 10:30')).toBeInTheDocument();

    await userEvent.click(
      within(card).getByRole('button', { name: 'Accept the invitation to Globex' }),
    );
    expect(await screen.findByText('You joined Globex')).toBeInTheDocument();
    expect(calls('hub_approveInvite')).toEqual([{ inviteId: uuid(500) }]);
    expect(calls('hub_getUserProfile').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'Switch to this team' }));
    expect(useSession.getState()).toMatchObject({ loginType: 'team', teamId: T2 });
    expect(location()).toHaveTextContent('/rpc/endpoint');
  });
});

describe('team switcher', () => {
  const teamList = [
    { teamId: T1, teamName: 'Acme', role: 'owner' as const },
    { teamId: T2, teamName: 'Globex', role: 'viewer' as const },
  ];

  it('shows the acting account and switches to a team, dropping cached account data', async () => {
    signIn({ teamList, hasTeam: true });
    const queryClient = newQueryClient();
    queryClient.setQueryData(['api-keys', 'list'], { list: ['personal key'] });
    renderAt('/rpc/billings', () => <TeamSwitcher />, queryClient);
    const button = screen.getByRole('button', {
      name: 'Acting as Personal account: switch account',
    });
    await userEvent.click(button);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: /Personal account/ })).toBeInTheDocument();
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Globex/ }));
    expect(useSession.getState()).toMatchObject({ loginType: 'team', teamId: T2 });
    expect(Cookies.get(COOKIE.teamId)).toBe(T2);
    expect(queryClient.getQueryData(['api-keys', 'list'])).toBeUndefined();
    expect(location()).toHaveTextContent('/rpc/endpoint');
    expect(
      screen.getByRole('button', { name: 'Acting as Globex (Viewer): switch account' }),
    ).toBeInTheDocument();
  });

  it('offers a team-type user only teams, and leads to team management', async () => {
    signIn({ teamList, userType: 'team', hasTeam: true }, { loginType: 'team', teamId: T1 });
    renderAt('/rpc/endpoint', () => <TeamSwitcher />);
    await userEvent.click(
      screen.getByRole('button', { name: 'Acting as Acme (Owner): switch account' }),
    );
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: /Personal account/ })).toBeNull();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Manage teams' }));
    expect(location()).toHaveTextContent('/rpc/team');
  });

  it('is not there for a user without teams', () => {
    renderAt('/rpc/endpoint', () => <TeamSwitcher />);
    expect(screen.queryByRole('button', { name: /switch account/ })).toBeNull();
  });
});

describe('acting role', () => {
  function Probe() {
    return (
      <p>
        keys:{String(useCan('keys'))} billing:{String(useCan('billing'))}
      </p>
    );
  }

  it('allows everything in a personal login', () => {
    renderAt('/rpc/endpoint', Probe);
    expect(screen.getByText('keys:true billing:true')).toBeInTheDocument();
    expect(calls('hub_getTeamUserProfile')).toHaveLength(0);
  });

  it("follows the acting team's permissions in a team login", async () => {
    teams = [makeTeam(T2, 'Globex', 'viewer')];
    signIn(
      { teamList: [{ teamId: T2, teamName: 'Globex', role: 'viewer' }] },
      { loginType: 'team', teamId: T2 },
    );
    renderAt('/rpc/endpoint', Probe);
    expect(screen.getByText('keys:false billing:false')).toBeInTheDocument();
    await waitFor(() => expect(calls('hub_getTeamUserProfile')).toHaveLength(1));
  });

  it.each([
    ['/rpc/billings/charge', BillingChargePage, 'Top up'],
    ['/rpc/billings/invoice', BillingInvoicePage, 'Invoices'],
  ] as const)(
    'a viewer opening %s by URL is told why, and nothing the role lacks is asked for',
    async (path, Page, heading) => {
      teams = [makeTeam(T2, 'Globex', 'viewer')];
      signIn(
        { teamList: [{ teamId: T2, teamName: 'Globex', role: 'viewer' }] },
        { loginType: 'team', teamId: T2 },
      );
      renderAt(path, Page);
      expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(screen.getByText(/billing/i, { selector: '.ant-alert-message' })).toBeInTheDocument();
      await waitFor(() => expect(calls('hub_getTeamUserProfile')).toHaveLength(1));
      const asked = rpc.mock.calls.map((c) => c[0]);
      expect(asked.filter((m) => m !== 'hub_getTeamUserProfile')).toEqual([]);
    },
  );
});

describe('team notices', () => {
  it('a disband notice about another team refreshes the profile and the team queries', async () => {
    const queryClient = newQueryClient();
    const unwire = wireTeams(queryClient);
    try {
      await queryClient.prefetchQuery(getMyTeamsQueryOptions('u1'));
      expect(calls('hub_getMyTeam')).toHaveLength(1);
      await receiveNotice(
        {
          id: 'n1',
          type: 'team_disband',
          title: '',
          content: '',
          createdAt: JAN_2026,
          read: false,
          teamId: T2,
          expand: { teamId: T2, teamName: 'Globex' },
        } as TNotice,
        () => undefined,
      );
      expect(calls('hub_getUserProfile')).toHaveLength(1);
      expect(queryClient.getQueryState(getMyTeamsQueryOptions('u1').queryKey)?.isInvalidated).toBe(
        true,
      );
    } finally {
      unwire();
    }
  });
});
