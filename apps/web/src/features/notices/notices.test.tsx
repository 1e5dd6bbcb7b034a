/** The notifications screen against a fake request client (callRpc only), and the header bell. */
import type { TMethodName, TNotice, TNoticeType } from '@rpc/contract';
import { NOTICE_CUTOFF_MS, NOTICE_TYPES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell } from '../../components/notification-bell';
import { i18n, initI18n } from '../../lib/i18n';
import { NOTICE_TARGETS } from '../../lib/notice-target';
import { addNotice, resetNotices } from '../../lib/notices';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc } from '../../lib/rpc-client';
import { NotificationsPage } from './components/notifications-page';
import { NOTICE_TOPICS, topicState, topicsOf, withTopic } from './utils/notice-topics';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
let seq = 0;

function notice(type: TNoticeType, over: Partial<TNotice> = {}): TNotice {
  seq += 1;
  return {
    id: `n${seq}`,
    type,
    title: 'Server title',
    content: 'Server content',
    createdAt: NOTICE_CUTOFF_MS + seq,
    read: false,
    teamId: null,
    expand: { apikeyName: `key-${seq}`, amount: 500 },
    ...over,
  };
}

/** An in-memory server: notices newest first, cursor = index as a string. */
let server: TNotice[] = [];
let mailed: TNoticeType[] = [];
let mailable: TNoticeType[] = [];

function unreadByType() {
  const out: Record<string, number> = {};
  for (const n of server) if (!n.read) out[n.type] = (out[n.type] ?? 0) + 1;
  return out;
}

const handlers: Partial<Record<TMethodName, (params: never) => unknown>> = {
  hub_getUserMessages: (p: {
    cursor: string | number;
    perPage: number;
    unread?: boolean;
    type?: TNoticeType;
  }) => {
    const all = server.filter(
      (n) => (p.unread === undefined || n.read === !p.unread) && (!p.type || n.type === p.type),
    );
    const start = Number(p.cursor);
    const list = all.slice(start, start + p.perPage);
    return {
      list,
      nextCursor: start + p.perPage < all.length ? String(start + p.perPage) : null,
      unreadCount: server.filter((n) => !n.read).length,
      unreadByType: unreadByType(),
    };
  },
  hub_setUserMessageRead: (p: { type: TNoticeType }) => {
    server = server.map((n) => (n.type === p.type ? { ...n, read: true } : n));
    return { unreadCount: server.filter((n) => !n.read).length };
  },
  hub_setUserMessageReadAll: () => {
    server = server.map((n) => ({ ...n, read: true }));
    return { unreadCount: 0 };
  },
  hub_getUserEmailConfig: () => ({ types: mailed, available: mailable }),
  hub_setUserEmailConfig: (p: { types: TNoticeType[] }) => {
    mailed = p.types;
    return { types: mailed };
  },
};

function calls(method: TMethodName) {
  return rpc.mock.calls.filter(([m]) => m === method).map(([, params]) => params);
}

function renderPage(path = '/rpc/notifications') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <NotificationBell />
        <Routes>
          <Route path="/rpc/notifications" element={<NotificationsPage />} />
          <Route path="/zh/rpc/notifications" element={<NotificationsPage />} />
          <Route path="/rpc/billings" element={<h1>Billing page</h1>} />
          <Route path="/rpc/endpoint" element={<h1>Endpoint page</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  rpc.mockReset();
  rpc.mockImplementation(async (method, params) => {
    const handler = handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return handler(params as never) as never;
  });
  resetNotices();
  seq = 0;
  mailed = ['deposit'];
  mailable = ['deposit', 'low_ru', 'apikey_delete'];
  server = [];
  await act(() => i18n.changeLanguage('en'));
});

describe('NotificationsPage', () => {
  it('shows loading, then an empty state', async () => {
    renderPage();
    expect(screen.getByText('Loading notifications…')).toBeInTheDocument();
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(calls('hub_getUserMessages')).toEqual([{ cursor: 0, perPage: 20 }]);
  });

  it('lists notices with their localised text, loads more by cursor, and shows the unread badge', async () => {
    server = Array.from({ length: 25 }, () => notice('apikey_delete'));
    renderPage();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(
      within(list).getByText('API key key-1 was deleted; requests with it are refused.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAccessibleDescription(
      '25 unread notifications',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(calls('hub_getUserMessages').at(-1)).toEqual({ cursor: '20', perPage: 20 });
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('filters unread and by type, and marks one type read', async () => {
    server = [notice('low_ru'), notice('apikey_delete'), notice('low_ru', { read: true })];
    renderPage();
    await screen.findByRole('list', { name: 'Notifications' });
    // antd draws its own radio over the input, which takes no pointer events itself.
    fireEvent.click(screen.getByRole('radio', { name: 'Unread' }));
    await waitFor(() =>
      expect(calls('hub_getUserMessages').at(-1)).toEqual({ cursor: 0, perPage: 20, unread: true }),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByTitle('Low RU balance'));
    await waitFor(() =>
      expect(calls('hub_getUserMessages').at(-1)).toEqual({
        cursor: 0,
        perPage: 20,
        unread: true,
        type: 'low_ru',
      }),
    );
    const list = await screen.findByRole('list', { name: 'Notifications' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    await userEvent.click(
      screen.getByRole('button', { name: 'Mark all “Low RU balance” as read' }),
    );
    await waitFor(() => expect(calls('hub_setUserMessageRead')).toEqual([{ type: 'low_ru' }]));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAccessibleDescription(
        '1 unread notification',
      ),
    );
  });

  it('"Mark all as read" clears the badge; a new notice raises it again', async () => {
    server = [notice('low_ru'), notice('apikey_delete')];
    renderPage();
    await screen.findByRole('list', { name: 'Notifications' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(calls('hub_setUserMessageReadAll')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAccessibleDescription(
        'No unread notifications',
      ),
    );
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    act(() =>
      addNotice(notice('deposit', { expand: { coinAmount: '5', coin: 'USDT', usdAmount: '5' } })),
    );
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAccessibleDescription(
      '1 unread notification',
    );
    const list = screen.getByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Deposit received');
  });

  it('chooses e-mail by topic, with plain names, and single types on demand', async () => {
    mailed = ['deposit'];
    renderPage();
    const group = await screen.findByRole('group', { name: 'Topics sent by e-mail' });
    // available: deposit, low_ru, apikey_delete → three topics, not three raw types
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')?.textContent)).toEqual([
      'Service stops and low balance',
      'Payments and purchases',
      'API key changes',
    ]);
    expect(within(group).getByRole('checkbox', { name: 'Payments and purchases' })).toBeChecked();
    expect(
      within(group).getByRole('checkbox', { name: 'Service stops and low balance' }),
    ).toHaveAccessibleDescription(
      'Your API service is paused, your RUs or wallet balance run low, or a package runs out or expires.',
    );
    await userEvent.click(
      within(group).getByRole('checkbox', { name: 'Service stops and low balance' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save e-mail preferences' }));
    await waitFor(() =>
      expect(calls('hub_setUserEmailConfig')).toEqual([{ types: ['deposit', 'low_ru'] }]),
    );
  });

  it('opens the single types of a topic and saves one of them', async () => {
    mailed = [];
    mailable = ['low_ru', 'low_balance', 'deposit'];
    renderPage();
    const group = await screen.findByRole('group', { name: 'Topics sent by e-mail' });
    const more = within(group).getByRole('button', {
      name: 'Choose individually: Service stops and low balance',
    });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const single = within(group).getByRole('group', { name: 'Service stops and low balance' });
    await userEvent.click(within(single).getByRole('checkbox', { name: 'Low RU balance' }));
    // one of two: the topic box shows "some"
    expect(
      within(group).getByRole('checkbox', { name: 'Service stops and low balance' }),
    ).toBePartiallyChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save e-mail preferences' }));
    await waitFor(() => expect(calls('hub_setUserEmailConfig')).toEqual([{ types: ['low_ru'] }]));
  });

  it('a notice title opens what it is about and marks it read', async () => {
    server = [notice('low_ru'), notice('apikey_delete')];
    renderPage();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const link = within(list).getByRole('link', { name: 'RU balance is low' });
    expect(link).toHaveAttribute('href', '/rpc/billings');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Billing page' })).toBeInTheDocument();
    await waitFor(() => expect(calls('hub_setUserMessageRead')).toEqual([{ type: 'low_ru' }]));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAccessibleDescription(
        '1 unread notification',
      ),
    );
  });

  it('a click anywhere on a notice opens it too', async () => {
    server = [notice('apikey_delete')];
    renderPage();
    await userEvent.click(
      await screen.findByText('API key key-1 was deleted; requests with it are refused.'),
    );
    expect(await screen.findByRole('heading', { name: 'Endpoint page' })).toBeInTheDocument();
    await waitFor(() =>
      expect(calls('hub_setUserMessageRead')).toEqual([{ type: 'apikey_delete' }]),
    );
  });

  it('an announcement has nothing to open: it is marked read with its own button', async () => {
    server = [notice('normal_warn', { title: 'Maintenance tonight', content: 'From 02:00 UTC.' })];
    renderPage();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).queryByRole('link')).toBeNull();
    await userEvent.click(
      within(list).getByRole('button', { name: 'Mark “Maintenance tonight” as read' }),
    );
    await waitFor(() => expect(calls('hub_setUserMessageRead')).toEqual([{ type: 'normal_warn' }]));
    await waitFor(() => expect(within(list).queryByText('Unread')).toBeNull());
    expect(within(list).queryByRole('button', { name: /as read/ })).toBeNull();
  });

  it('lists the type filter under topics', async () => {
    renderPage();
    await screen.findByText('No notifications');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox.parentElement!).getByText('Failed automatic payments'),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Automatic top-up failed')).toBeInTheDocument();
  });

  it('has its e-mail preferences at #email-preferences (linked from the profile)', async () => {
    const { container } = renderPage();
    await screen.findByRole('group', { name: 'Topics sent by e-mail' });
    expect(container.querySelector('#email-preferences')).toHaveTextContent('E-mail notifications');
  });

  it('speaks Chinese under /zh', async () => {
    await act(() => i18n.changeLanguage('zh'));
    server = [notice('low_ru')];
    renderPage('/zh/rpc/notifications');
    expect(
      await screen.findByText('您的账户仅剩 500 RU，请及时补充以免服务中断。'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '全部标为已读' })).toBeEnabled();
    expect(screen.getByRole('button', { name: '通知' })).toHaveAccessibleDescription(
      '1 条未读通知',
    );
  });
});

describe('notice topics and targets', () => {
  it('puts every notice type in exactly one topic', () => {
    const all = Object.values(NOTICE_TOPICS).flat();
    expect([...all].sort()).toEqual([...NOTICE_TYPES].sort());
    expect(new Set(all).size).toBe(all.length);
  });

  it('switches a whole topic, keeping the server order', () => {
    const available = ['deposit', 'low_ru', 'low_balance', 'apikey_delete'] as TNoticeType[];
    const [service] = topicsOf(available);
    expect(service).toEqual({ id: 'service', types: ['low_ru', 'low_balance'] });
    expect(withTopic(['apikey_delete'], service!, true, available)).toEqual([
      'low_ru',
      'low_balance',
      'apikey_delete',
    ]);
    expect(withTopic(['low_ru', 'deposit'], service!, false, available)).toEqual(['deposit']);
    expect(topicState(service!, new Set(['low_ru']))).toBe('some');
    expect(topicState(service!, new Set(['low_ru', 'low_balance']))).toBe('all');
    expect(topicState(service!, new Set())).toBe('none');
  });

  it.each([
    ['deposit', '/rpc/billings'],
    ['api_service_is_paused', '/rpc/billings'],
    ['apikey_feature_update', '/rpc/endpoint'],
    ['team_approve_invite', '/rpc/team'],
    ['team_disband', null],
    ['normal_success', null],
  ] as const)('a %s notice opens %s', (type, target) => {
    expect(NOTICE_TARGETS[type]).toBe(target);
  });
});
