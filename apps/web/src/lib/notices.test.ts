/** The notice store (SPEC §4): loading, front of group, counts, mark type, mark all, reactions, wiring. */
import type { TNotice, TNoticeType, TResult } from '@rpc/contract';
import { NOTICE_CUTOFF_MS, UNREAD_NOTICES_PER_PAGE } from '@rpc/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from './i18n';
import {
  addNotice,
  loadMoreNotices,
  loadUnread,
  markAllRead,
  markTypeRead,
  noticeReaction,
  readType,
  receiveNotice,
  resetNotices,
  setNoticeReactions,
  useNotices,
  wireNotices,
} from './notices';
import type * as RpcClientModule from './rpc-client';
import { RpcCancelledError, callRpc } from './rpc-client';
import { useSession } from './session';
import { STORAGE_KEY } from './storage-keys';
import { makeUser } from '../test/fixtures';

vi.mock('./rpc-client', async (importOriginal) => ({
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
    title: 't',
    content: 'c',
    createdAt: NOTICE_CUTOFF_MS + seq,
    read: false,
    teamId: null,
    expand: {},
    ...over,
  };
}

function page(list: TNotice[], over: Partial<TResult<'hub_getUserMessages'>> = {}) {
  const unreadByType: Record<string, number> = {};
  for (const n of list) if (!n.read) unreadByType[n.type] = (unreadByType[n.type] ?? 0) + 1;
  return {
    list,
    nextCursor: null,
    unreadCount: list.filter((n) => !n.read).length,
    unreadByType,
    ...over,
  };
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  rpc.mockReset();
  resetNotices();
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
});

describe('loadUnread (SPEC §4 Login)', () => {
  it('asks for unread notices from cursor 0, 9999 per page, and sets list, cursor and count', async () => {
    const a = notice('deposit');
    const b = notice('low_ru');
    rpc.mockResolvedValue(page([a, b], { nextCursor: 'c2' }) as never);
    await loadUnread();
    expect(rpc).toHaveBeenCalledWith('hub_getUserMessages', {
      cursor: 0,
      perPage: UNREAD_NOTICES_PER_PAGE,
      unread: true,
    });
    expect(UNREAD_NOTICES_PER_PAGE).toBe(9999);
    const state = useNotices.getState();
    expect(state.list).toEqual([a, b]);
    expect(state.groups).toEqual({ deposit: [a], low_ru: [b] });
    expect(state.cursor).toBe('c2');
    expect(state.unreadCount).toBe(2);
  });

  it('tries again when a route change cancelled the call', async () => {
    rpc
      .mockRejectedValueOnce(new RpcCancelledError('hub_getUserMessages', 'route-change'))
      .mockResolvedValueOnce(page([notice('deposit')]) as never);
    await loadUnread();
    expect(rpc).toHaveBeenCalledTimes(2);
    expect(useNotices.getState().unreadCount).toBe(1);
  });

  it('load more appends the next page from the cursor', async () => {
    const first = notice('deposit');
    const second = notice('deposit', { read: true });
    rpc.mockResolvedValueOnce(page([first], { nextCursor: 'c1' }) as never);
    await loadUnread();
    rpc.mockResolvedValueOnce(page([second], { unreadCount: 1 }) as never);
    await loadMoreNotices(20);
    expect(rpc).toHaveBeenLastCalledWith('hub_getUserMessages', {
      cursor: 'c1',
      perPage: 20,
      unread: true,
    });
    expect(useNotices.getState().list).toEqual([first, second]);
    expect(useNotices.getState().cursor).toBeNull();
  });
});

describe('a notice pushed while a load is on its way', () => {
  it('is kept, in front and counted, when the answer was read before it existed', async () => {
    const old = notice('register_gift');
    let answer: (v: unknown) => void = () => {};
    rpc.mockImplementation(() => new Promise((resolve) => (answer = resolve)) as never);
    const loading = loadUnread();
    const pushed = notice('apikey_delete');
    addNotice(pushed);
    answer(page([old]));
    await loading;
    const s = useNotices.getState();
    expect(s.list.map((n) => n.id)).toEqual([pushed.id, old.id]);
    expect(s.unreadCount).toBe(2);
    expect(s.unreadByType).toMatchObject({ register_gift: 1, apikey_delete: 1 });
  });

  it('is not counted twice when the answer already has it', async () => {
    const old = notice('register_gift');
    let answer: (v: unknown) => void = () => {};
    rpc.mockImplementation(() => new Promise((resolve) => (answer = resolve)) as never);
    const loading = loadUnread();
    const pushed = notice('apikey_delete');
    addNotice(pushed);
    answer(page([pushed, old]));
    await loading;
    const s = useNotices.getState();
    expect(s.list.map((n) => n.id)).toEqual([pushed.id, old.id]);
    expect(s.unreadCount).toBe(2);
  });
});

describe('notice read semantics (SPEC §4)', () => {
  it('a new notice goes to the front of its type group and raises the count', async () => {
    const old = notice('deposit');
    const other = notice('low_ru');
    rpc.mockResolvedValue(page([old, other]) as never);
    await loadUnread();
    const fresh = notice('deposit');
    addNotice(fresh);
    const state = useNotices.getState();
    expect(state.groups.deposit).toEqual([fresh, old]);
    expect(state.groups.low_ru).toEqual([other]);
    expect(state.list[0]).toBe(fresh);
    expect(state.unreadCount).toBe(3);
    expect(state.unreadByType.deposit).toBe(2);
    addNotice(fresh);
    expect(useNotices.getState().unreadCount).toBe(3);
  });

  it('marking one type read sets all of that type read and lowers the count by its unread', async () => {
    rpc.mockResolvedValue(
      page([notice('deposit'), notice('low_ru'), notice('deposit')], {
        unreadCount: 5,
        unreadByType: { deposit: 4, low_ru: 1 },
      }) as never,
    );
    await loadUnread();
    markTypeRead('deposit');
    const state = useNotices.getState();
    expect(state.groups.deposit?.every((n) => n.read)).toBe(true);
    expect(state.groups.low_ru?.every((n) => !n.read)).toBe(true);
    // 4 unread deposits on the server (2 of them loaded): 5 - 4
    expect(state.unreadCount).toBe(1);
    expect(state.unreadByType.deposit).toBe(0);
  });

  it('readType tells the server first', async () => {
    rpc.mockResolvedValueOnce(page([notice('low_ru')]) as never);
    await loadUnread();
    rpc.mockResolvedValueOnce({ unreadCount: 0 } as never);
    await readType('low_ru');
    expect(rpc).toHaveBeenLastCalledWith('hub_setUserMessageRead', { type: 'low_ru' });
    expect(useNotices.getState().unreadCount).toBe(0);
  });

  it('mark all sets the count to 0 and every notice read', async () => {
    rpc.mockResolvedValue(page([notice('deposit'), notice('low_ru')]) as never);
    await loadUnread();
    markAllRead();
    expect(useNotices.getState().unreadCount).toBe(0);
    expect(useNotices.getState().list.every((n) => n.read)).toBe(true);
  });
});

describe('reactions (SPEC §4)', () => {
  const team = { loginType: 'team' as const, teamId: 't1' };
  it.each([
    [
      'team_remove_member of the current team',
      notice('team_remove_member', { expand: { teamId: 't1' } }),
      team,
      'sign-out',
    ],
    [
      'team_disband of the current team',
      notice('team_disband', { expand: { teamId: 't1' } }),
      team,
      'sign-out',
    ],
    [
      'team_disband of another team',
      notice('team_disband', { expand: { teamId: 't2' } }),
      team,
      'refresh-team-list',
    ],
    [
      'team_remove_member in a personal login',
      notice('team_remove_member', { expand: { teamId: 't1' } }),
      { loginType: 'personal' as const, teamId: 't1' },
      'refresh-team-list',
    ],
    ['deposit', notice('deposit'), team, 'refresh-wallet'],
    ['file_download', notice('file_download'), team, 'clear-export-session'],
    ['low_ru', notice('low_ru'), team, null],
  ])('%s -> %s', (_name, n, session, expected) => {
    expect(noticeReaction(n, session)).toBe(expected);
  });

  let restore: () => void = () => {};
  afterEach(() => restore());

  it('signs out before showing a removal from the current team', async () => {
    const order: string[] = [];
    restore = setNoticeReactions({
      leaveCurrentTeam: async () => {
        order.push('sign-out');
      },
    });
    useSession.setState({ loginType: 'team', teamId: 't1' });
    await receiveNotice(notice('team_disband', { expand: { teamId: 't1' } }), () =>
      order.push('show'),
    );
    expect(order).toEqual(['sign-out', 'show']);
  });

  it('refreshes the team list for another team', async () => {
    const refreshTeamList = vi.fn(async () => {});
    restore = setNoticeReactions({ refreshTeamList });
    useSession.setState({ loginType: 'team', teamId: 't1' });
    await receiveNotice(notice('team_remove_member', { expand: { teamId: 't9' } }), () => {});
    expect(refreshTeamList).toHaveBeenCalledOnce();
  });

  it('a deposit refreshes the wallet and flags the deposit list', async () => {
    const refreshWallet = vi.fn(async () => {});
    restore = setNoticeReactions({ refreshWallet });
    const show = vi.fn();
    const n = notice('deposit');
    await receiveNotice(n, show);
    expect(refreshWallet).toHaveBeenCalledOnce();
    expect(useNotices.getState().isDepositListStale).toBe(true);
    expect(useNotices.getState().unreadCount).toBe(1);
    expect(show).toHaveBeenCalledWith(n, 'en');
  });

  it('file_download clears the cached export session of its kind', async () => {
    sessionStorage.setItem(STORAGE_KEY.exportSessionDeposit, 'x');
    sessionStorage.setItem(STORAGE_KEY.exportSessionPurchase, 'y');
    await receiveNotice(notice('file_download', { expand: { type: 'purchase' } }), () => {});
    expect(sessionStorage.getItem(STORAGE_KEY.exportSessionPurchase)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY.exportSessionDeposit)).toBe('x');
  });
});

describe('wireNotices (SPEC §4 Login, Logout)', () => {
  type TFake = { url: string; closed: boolean };
  it('opens the socket and loads unread notices once the session is ready; closes and clears on sign-out', async () => {
    const sockets: TFake[] = [];
    rpc.mockResolvedValue(page([notice('deposit')]) as never);
    const { unwire } = wireNotices({
      show: () => {},
      createSocket: (url) => {
        const fake = {
          url,
          closed: false,
          readyState: 0,
          onopen: null,
          onmessage: null,
          onerror: null,
          onclose: null,
          close: () => {
            fake.closed = true;
          },
        };
        sockets.push(fake);
        return fake;
      },
    });
    // An uninitialised personal account: nothing yet.
    useSession.setState({
      token: 'tok',
      user: makeUser({ initialize: false }),
      loginType: 'personal',
    });
    expect(sockets).toHaveLength(0);
    useSession.setState({ user: makeUser() });
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toMatch(/\/ws\?authorization=tok$/);
    await vi.waitFor(() => expect(useNotices.getState().unreadCount).toBe(1));
    expect(rpc).toHaveBeenCalledTimes(1);

    useSession.setState({ token: null, user: null, loginType: null });
    expect(sockets[0]!.closed).toBe(true);
    expect(useNotices.getState().unreadCount).toBe(0);
    unwire();
  });
});
