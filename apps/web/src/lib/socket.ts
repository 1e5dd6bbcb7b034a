/**
 * The notice socket (SPEC §4): one WebSocket at NOTICE_SOCKET_PATH with the token in the authorization
 * query; frames are parsed with the contract schema. It reconnects with exponential backoff and jitter only
 * after an unclean or going-away close while a token exists; never after 4401/4403 or close(). Errors are
 * only logged.
 */
import type { TNotice } from '@rpc/contract';
import { NOTICE_SOCKET_CLOSE, NOTICE_SOCKET_PATH, ZNoticeFrameSchema } from '@rpc/contract';

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): base·2^attempt capped at max, of which the upper
 * half is random ("equal jitter"), so a restarted server is not hit by every client at the same moment.
 */
export function backoffDelay(
  attempt: number,
  opts: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  const { baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS, random = Math.random } = opts;
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Close codes that mean "come back later" even when the close handshake was clean. */
const RETRY_CODES: ReadonlySet<number> = new Set([NOTICE_SOCKET_CLOSE.GOING_AWAY, 1012, 1013]);
/** The server refused the token or ended the session: the same token would be refused again. */
const FINAL_CODES: ReadonlySet<number> = new Set([
  NOTICE_SOCKET_CLOSE.UNAUTHORIZED,
  NOTICE_SOCKET_CLOSE.SESSION_ENDED,
]);

/** SPEC §4: reconnect after an unclean (or going-away) close while a token exists. */
export function shouldReconnect(
  close: { code: number; wasClean: boolean },
  state: { hasToken: boolean; closedByClient: boolean },
): boolean {
  if (state.closedByClient || !state.hasToken) return false;
  if (FINAL_CODES.has(close.code)) return false;
  return !close.wasClean || RETRY_CODES.has(close.code);
}

/** ws(s)://host/ws?authorization=<token>, same origin as the console (Vite proxies /ws in dev). */
export function noticeSocketUrl(
  token: string,
  location: Pick<Location, 'protocol' | 'host'>,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${NOTICE_SOCKET_PATH}?authorization=${encodeURIComponent(token)}`;
}

type TWebSocketLike = Pick<WebSocket, 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
};

export type TNoticeSocketOptions = {
  /** the token the socket should use now; null when signed out */
  getToken: () => string | null;
  onNotice: (notice: TNotice) => void;
  /** a connection opened again after it had been lost (missed notices may need loading) */
  onReconnected?: () => void;
  url?: (token: string) => string;
  createSocket?: (url: string) => TWebSocketLike;
  random?: () => number;
  logger?: Pick<Console, 'warn' | 'info'>;
};

export type TNoticeSocket = {
  /** Opens (or keeps) a connection for `token`; a different token replaces the current connection. */
  connect: (token: string) => void;
  /** Closes for good (sign-out): no reconnect until connect() is called again. */
  close: () => void;
  isConnected: () => boolean;
};

export function createNoticeSocket(o: TNoticeSocketOptions): TNoticeSocket {
  const logger = o.logger ?? console;
  const url = o.url ?? ((token: string) => noticeSocketUrl(token, window.location));
  const createSocket = o.createSocket ?? ((address: string) => new WebSocket(address));

  let socket: TWebSocketLike | null = null;
  let token: string | null = null;
  let wanted = false;
  let attempt = 0;
  let hadConnection = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function onFrame(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      logger.warn('Notice socket: a frame that is not JSON was ignored');
      return;
    }
    // Frames other than notices (a heartbeat, say) carry no params.type 'message': ignored quietly.
    const kind = (json as { params?: { type?: unknown } } | null)?.params?.type;
    if (kind !== 'message') return;
    const parsed = ZNoticeFrameSchema.safeParse(json);
    if (!parsed.success) {
      logger.warn('Notice socket: a notice frame did not match the contract', parsed.error);
      return;
    }
    try {
      o.onNotice(parsed.data.params.body);
    } catch (error) {
      logger.warn('Notice socket: handling a notice failed', error);
    }
  }

  function scheduleReconnect(): void {
    const delay = backoffDelay(attempt, o.random ? { random: o.random } : {});
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      const current = o.getToken();
      if (!wanted || !current) {
        wanted = false;
        return;
      }
      token = current;
      open();
    }, delay);
  }

  function open(): void {
    if (!token) return;
    let next: TWebSocketLike;
    try {
      next = createSocket(url(token));
    } catch (error) {
      logger.warn('Notice socket: could not open', error);
      scheduleReconnect();
      return;
    }
    socket = next;
    next.onopen = () => {
      if (socket !== next) return;
      const isReconnect = hadConnection || attempt > 0;
      hadConnection = true;
      attempt = 0;
      if (isReconnect) o.onReconnected?.();
    };
    next.onmessage = (event) => {
      if (socket === next) onFrame(event.data);
    };
    next.onerror = (event) => {
      logger.warn('Notice socket error', event);
    };
    next.onclose = (event) => {
      if (socket !== next) return;
      socket = null;
      const current = o.getToken();
      const again = shouldReconnect(
        { code: event.code, wasClean: event.wasClean },
        { hasToken: !!current, closedByClient: !wanted },
      );
      if (again) {
        scheduleReconnect();
      } else {
        if (wanted) logger.info(`Notice socket closed (${event.code}); not reconnecting`);
        wanted = false;
      }
    };
  }

  function close(): void {
    wanted = false;
    if (timer) clearTimeout(timer);
    timer = null;
    const current = socket;
    socket = null;
    token = null;
    attempt = 0;
    hadConnection = false;
    if (current) {
      current.onmessage = null;
      current.onclose = null;
      try {
        current.close(1000, 'signed out');
      } catch (error) {
        logger.warn('Notice socket: close failed', error);
      }
    }
  }

  return {
    connect(nextToken) {
      if (wanted && token === nextToken && (socket || timer)) return;
      close();
      wanted = true;
      token = nextToken;
      open();
    },
    close,
    isConnected: () => socket !== null && socket.readyState === 1,
  };
}
