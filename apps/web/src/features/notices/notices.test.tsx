/** The notifications screen against a fake request client (callRpc only), and the header bell. */
import type { TMethodName, TNotice, TNoticeType } from '@rpc/contract';
import { NOTICE_CUTOFF_MS } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell } from '../../components/notification-bell';
import { i18n, initI18n } from '../../lib/i18n';
import { addNotice, resetNotices } from '../../lib/notices';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc } from '../../lib/rpc-client';
import { NotificationsPage } from './components/notifications-page';

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
  hub_getUserEmailConfig: () => ({
    types: mailed,
    available: ['deposit', 'low_ru', 'apikey_delete'],
  }),
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

  it('saves the e-mail preferences', async () => {
    renderPage();
    const group = await screen.findByRole('group', { name: 'Notice types sent by e-mail' });
    expect(within(group).getByRole('checkbox', { name: 'Deposits' })).toBeChecked();
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Low RU balance' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save e-mail preferences' }));
    await waitFor(() =>
      expect(calls('hub_setUserEmailConfig')).toEqual([{ types: ['deposit', 'low_ru'] }]),
    );
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
