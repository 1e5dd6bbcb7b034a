/**
 * The notice store (SPEC §3, §4): list (newest first), cursor, unread count, grouping by type; loaded on
 * sign-in, fed by the socket, cleared on sign-out. The SPEC §4 reactions to team, deposit and
 * file_download notices are decided here (noticeReaction) and carried out through replaceable seams.
 */
import type { TLanguage, TNotice, TNoticeType, TResult } from '@rpc/contract';
import { UNREAD_NOTICES_PER_PAGE } from '@rpc/contract';
import { create } from 'zustand';
import { appNavigate } from './app-navigation';
import { currentLang } from './i18n';
import { localePath } from './locale-path';
import { callRpc, isCancelledError, RpcCancelledError } from './rpc-client';
import type { TSessionState } from './session';
import { onAfterLogin, onBeforeLogout, refreshUser, signOut, useSession } from './session';
import type { TNoticeSocket, TNoticeSocketOptions } from './socket';
import { createNoticeSocket } from './socket';
import { STORAGE_KEY } from './storage-keys';

export type TNoticeQuery = { unread?: boolean; type?: TNoticeType };
export type TNoticeGroups = Partial<Record<TNoticeType, TNotice[]>>;

export type TNoticeState = {
  /** newest first */
  list: TNotice[];
  /** the same notices by type, each group newest first */
  groups: TNoticeGroups;
  /** what the list holds: the sign-in load is { unread: true } */
  query: TNoticeQuery;
  /** where the next page starts; null when everything is loaded */
  cursor: string | number | null;
  unreadCount: number;
  unreadByType: Partial<Record<TNoticeType, number>>;
  isLoading: boolean;
  /** a deposit notice arrived: the deposit list should reload when shown (SPEC §4) */
  isDepositListStale: boolean;
};

const empty = (): TNoticeState => ({
  list: [],
  groups: {},
  query: {},
  cursor: null,
  unreadCount: 0,
  unreadByType: {},
  isLoading: false,
  isDepositListStale: false,
});

export const useNotices = create<TNoticeState>()(() => empty());

export function groupByType(list: readonly TNotice[]): TNoticeGroups {
  const groups: TNoticeGroups = {};
  for (const notice of list) (groups[notice.type] ??= []).push(notice);
  return groups;
}

function withList(list: TNotice[]): Pick<TNoticeState, 'list' | 'groups'> {
  return { list, groups: groupByType(list) };
}

function matches(notice: TNotice, query: TNoticeQuery): boolean {
  if (query.type && notice.type !== query.type) return false;
  if (query.unread === true && notice.read) return false;
  if (query.unread === false && !notice.read) return false;
  return true;
}

// --- Pure state changes (SPEC §4 notice read) ---

/**
 * Notices added while a load was in flight, in order. A load's answer may have been read on the server before they
 * existed; it must not drop them (or their count) when it replaces the list. Emptied when no load is in flight.
 */
let arrivals: TNotice[] = [];
let loadsInFlight = 0;

/** A new notice goes to the front (so to the front of its type group) and, if unread, raises the count. */
export function addNotice(notice: TNotice): void {
  if (loadsInFlight > 0) arrivals.push(notice);
  const state = useNotices.getState();
  if (state.list.some((n) => n.id === notice.id)) return;
  const unread = notice.read ? 0 : 1;
  useNotices.setState({
    ...(matches(notice, state.query) ? withList([notice, ...state.list]) : {}),
    unreadCount: state.unreadCount + unread,
    unreadByType: {
      ...state.unreadByType,
      [notice.type]: (state.unreadByType[notice.type] ?? 0) + unread,
    },
  });
}

/** Every notice of `type` is read; the count drops by that group's unread. */
export function markTypeRead(type: TNoticeType): void {
  const state = useNotices.getState();
  const loadedUnread = state.list.filter((n) => n.type === type && !n.read).length;
  const groupUnread = Math.max(state.unreadByType[type] ?? 0, loadedUnread);
  useNotices.setState({
    ...withList(state.list.map((n) => (n.type === type && !n.read ? { ...n, read: true } : n))),
    unreadCount: Math.max(0, state.unreadCount - groupUnread),
    unreadByType: { ...state.unreadByType, [type]: 0 },
  });
}

/** Every notice is read; the count is 0. */
export function markAllRead(): void {
  const state = useNotices.getState();
  useNotices.setState({
    ...withList(state.list.map((n) => (n.read ? n : { ...n, read: true }))),
    unreadCount: 0,
    unreadByType: {},
  });
}

export function resetNotices(): void {
  useNotices.setState(empty(), true);
}

export function clearDepositListFlag(): void {
  useNotices.setState({ isDepositListStale: false });
}

// --- Server calls ---

type TPage = TResult<'hub_getUserMessages'>;
let loadGeneration = 0;

async function fetchPage(
  query: TNoticeQuery,
  cursor: string | number,
  perPage: number,
): Promise<TPage> {
  // The sign-in load races the redirect that follows it, and a route change cancels every call in
  // flight (SPEC §9): a call cancelled that way is made again, a few times at most.
  for (let tries = 0; ; tries += 1) {
    try {
      return await callRpc('hub_getUserMessages', { cursor, perPage, ...query });
    } catch (error) {
      const isRouteChange = error instanceof RpcCancelledError && error.reason === 'route-change';
      if (!isRouteChange || tries >= 3) throw error;
    }
  }
}

/** Replaces the list with the first page of `query` (the notifications screen and the sign-in load). */
export async function loadNotices(query: TNoticeQuery, perPage: number): Promise<void> {
  const generation = ++loadGeneration;
  const arrivedFrom = arrivals.length;
  loadsInFlight += 1;
  useNotices.setState({ isLoading: true, query });
  try {
    const page = await fetchPage(query, 0, perPage);
    if (generation !== loadGeneration) return;
    // Pushed while the page was on its way and not in it: newer than the page, so they go in front and count.
    // (A new notice matching the query is always on its first page when the server already had it.)
    const missed = arrivals
      .slice(arrivedFrom)
      .filter((n) => matches(n, query) && !page.list.some((p) => p.id === n.id));
    const unreadByType = { ...(page.unreadByType as TNoticeState['unreadByType']) };
    let unreadCount = page.unreadCount;
    for (const n of missed)
      if (!n.read) {
        unreadCount += 1;
        unreadByType[n.type] = (unreadByType[n.type] ?? 0) + 1;
      }
    useNotices.setState({
      ...withList([...missed.reverse(), ...page.list]),
      query,
      cursor: page.nextCursor,
      unreadCount,
      unreadByType,
    });
  } catch (error) {
    if (!isCancelledError(error)) console.warn('Notices could not be loaded', error);
    if (generation === loadGeneration) throw error;
  } finally {
    loadsInFlight -= 1;
    if (loadsInFlight === 0) arrivals = [];
    if (generation === loadGeneration) useNotices.setState({ isLoading: false });
  }
}

/** SPEC §4 Login: unread notices, cursor 0, UNREAD_NOTICES_PER_PAGE per page; sets the unread count. */
export function loadUnread(): Promise<void> {
  return loadNotices({ unread: true }, UNREAD_NOTICES_PER_PAGE);
}

/** The next page of the current query, appended. */
export async function loadMoreNotices(perPage: number): Promise<void> {
  const { cursor, query, isLoading } = useNotices.getState();
  if (cursor === null || isLoading) return;
  const generation = loadGeneration;
  useNotices.setState({ isLoading: true });
  try {
    const page = await fetchPage(query, cursor, perPage);
    if (generation !== loadGeneration) return;
    const known = new Set(useNotices.getState().list.map((n) => n.id));
    useNotices.setState({
      ...withList([...useNotices.getState().list, ...page.list.filter((n) => !known.has(n.id))]),
      cursor: page.nextCursor,
      unreadCount: page.unreadCount,
      unreadByType: page.unreadByType as TNoticeState['unreadByType'],
    });
  } finally {
    if (generation === loadGeneration) useNotices.setState({ isLoading: false });
  }
}

/** hub_setUserMessageRead, then the local change. */
export async function readType(type: TNoticeType): Promise<void> {
  await callRpc('hub_setUserMessageRead', { type });
  markTypeRead(type);
}

/** hub_setUserMessageReadAll, then the local change. */
export async function readAll(): Promise<void> {
  await callRpc('hub_setUserMessageReadAll', {});
  markAllRead();
}

// --- SPEC §4 reactions ---

export type TNoticeReaction =
  'sign-out' | 'refresh-team-list' | 'refresh-wallet' | 'clear-export-session' | null;

/** What a notice makes the app do besides showing it. */
export function noticeReaction(
  notice: TNotice,
  session: Pick<TSessionState, 'loginType' | 'teamId'>,
): TNoticeReaction {
  switch (notice.type) {
    case 'team_remove_member':
    case 'team_disband': {
      const teamId = notice.expand.teamId ?? notice.teamId;
      const isCurrentTeam = session.loginType === 'team' && !!teamId && teamId === session.teamId;
      return isCurrentTeam ? 'sign-out' : 'refresh-team-list';
    }
    case 'deposit':
      return 'refresh-wallet';
    case 'file_download':
      return 'clear-export-session';
    default:
      return null;
  }
}

export type TExportKind = 'deposit' | 'purchase';

/** The seams later issues replace (wallet, team list); the defaults do what can be done today. */
export type TNoticeReactions = {
  /** the current team is gone: sign out and go to / */
  leaveCurrentTeam: () => Promise<void>;
  refreshTeamList: () => Promise<void>;
  refreshWallet: () => Promise<void>;
  /** forget the export in progress; undefined kind: both */
  clearExportSession: (kind: TExportKind | undefined) => void;
};

const defaultReactions: TNoticeReactions = {
  leaveCurrentTeam: async () => {
    await signOut();
    appNavigate(localePath('/', currentLang()), { replace: true });
  },
  // The team list arrives with the user profile (teamList).
  refreshTeamList: () => refreshUser(),
  // No wallet store yet: the wallet issue plugs its refresh in with setNoticeReactions().
  refreshWallet: async () => {},
  clearExportSession: (kind) => {
    try {
      if (kind !== 'purchase') sessionStorage.removeItem(STORAGE_KEY.exportSessionDeposit);
      if (kind !== 'deposit') sessionStorage.removeItem(STORAGE_KEY.exportSessionPurchase);
    } catch {
      // storage disabled: nothing cached
    }
  },
};

let reactions: TNoticeReactions = { ...defaultReactions };

/** Replaces some reactions; returns a function that restores the previous ones. */
export function setNoticeReactions(next: Partial<TNoticeReactions>): () => void {
  const previous = reactions;
  reactions = { ...reactions, ...next };
  return () => {
    reactions = previous;
  };
}

export type TShowNotice = (notice: TNotice, lang: TLanguage) => void;

/** A notice from the socket: into the store, its reaction, and the popup (after a sign-out, so it stays). */
export async function receiveNotice(notice: TNotice, show: TShowNotice): Promise<void> {
  addNotice(notice);
  const reaction = noticeReaction(notice, useSession.getState());
  try {
    switch (reaction) {
      case 'sign-out':
        // Sign-out closes every popup, so the notice is shown after it, on the sign-in page.
        await reactions.leaveCurrentTeam();
        break;
      case 'refresh-team-list':
        await reactions.refreshTeamList();
        break;
      case 'refresh-wallet':
        useNotices.setState({ isDepositListStale: true });
        await reactions.refreshWallet();
        break;
      case 'clear-export-session': {
        const kind = notice.expand.type;
        reactions.clearExportSession(kind === 'deposit' || kind === 'purchase' ? kind : undefined);
        break;
      }
      default:
        break;
    }
  } catch (error) {
    if (!isCancelledError(error)) console.warn(`Reaction to a ${notice.type} notice failed`, error);
  }
  show(notice, currentLang());
}

// --- Wiring into the session (SPEC §4 Login / Logout) ---

/** SPEC §4: the socket and notices are for personal logins of initialised accounts, and team logins. */
export function isNoticeSessionReady(state: TSessionState): boolean {
  if (!state.token || !state.user) return false;
  return state.loginType === 'team' || (state.loginType === 'personal' && state.user.initialize);
}

export type TWireNoticesOptions = {
  show: TShowNotice;
  createSocket?: TNoticeSocketOptions['createSocket'];
};

/**
 * Opens the socket and loads unread notices when the session is ready, closes and clears on sign-out.
 * Besides the after-login seam it follows the session store, because a reload restores the session
 * without signing in, and a login type or first-login initialisation can arrive after sign-in.
 */
export function wireNotices(opts: TWireNoticesOptions): {
  socket: TNoticeSocket;
  unwire: () => void;
} {
  let loadedFor: string | null = null;
  const socket = createNoticeSocket({
    getToken: () => useSession.getState().token,
    onNotice: (notice) => void receiveNotice(notice, opts.show),
    // Notices raised while the socket was down: load the list again.
    onReconnected: () => {
      const { query, list } = useNotices.getState();
      void loadNotices(query, Math.max(list.length, 20)).catch(() => undefined);
    },
    ...(opts.createSocket ? { createSocket: opts.createSocket } : {}),
  });

  const start = (state: TSessionState) => {
    if (!isNoticeSessionReady(state) || !state.token) return;
    socket.connect(state.token);
    const key = `${state.token}|${state.loginType}|${state.teamId ?? ''}`;
    if (loadedFor === key) return;
    loadedFor = key;
    void loadUnread().catch(() => {
      if (loadedFor === key) loadedFor = null;
    });
  };
  const stop = () => {
    loadedFor = null;
    socket.close();
    resetNotices();
  };

  const offAfterLogin = onAfterLogin(start);
  const offBeforeLogout = onBeforeLogout(stop);
  const offSession = useSession.subscribe((state, previous) => {
    if (!state.token && previous.token) stop();
    else start(state);
  });
  start(useSession.getState());

  return {
    socket,
    unwire: () => {
      offAfterLogin();
      offBeforeLogout();
      offSession();
      stop();
    },
  };
}
