/** The notice socket against a fake WebSocket: frames, backoff, and when it reconnects (SPEC §4). */
import type { TNotice } from '@rpc/contract';
import { NOTICE_CUTOFF_MS } from '@rpc/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, createNoticeSocket, noticeSocketUrl, shouldReconnect } from './socket';

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  send(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent);
  }
  serverClose(code: number, wasClean: boolean) {
    this.readyState = 3;
    this.onclose?.({ code, wasClean } as CloseEvent);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
}

const notice: TNotice = {
  id: 'n1',
  type: 'low_ru',
  title: 'RU balance is low',
  content: 'x',
  createdAt: NOTICE_CUTOFF_MS + 1,
  read: false,
  teamId: null,
  expand: { amount: 5 },
};

let token: string | null = 'tok';
const logger = { warn: vi.fn(), info: vi.fn() };

function setup() {
  const onNotice = vi.fn();
  const onReconnected = vi.fn();
  const socket = createNoticeSocket({
    getToken: () => token,
    onNotice,
    onReconnected,
    url: (t) => `ws://test/ws?authorization=${t}`,
    createSocket: (url) => new FakeSocket(url),
    random: () => 0.5,
    logger,
  });
  return { socket, onNotice, onReconnected };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  token = 'tok';
  logger.warn.mockReset();
  logger.info.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it.each([
    [0, 0, 500],
    [0, 1, 1000],
    [1, 0, 1000],
    [2, 0.5, 3000],
    [4, 1, 16_000],
    [5, 1, 30_000],
    [50, 0, 15_000],
  ])('attempt %i with random %d waits %i ms', (attempt, random, expected) => {
    expect(backoffDelay(attempt, { random: () => random })).toBe(expected);
  });
});

describe('shouldReconnect', () => {
  const live = { hasToken: true, closedByClient: false };
  it.each([
    ['unclean close (server gone)', { code: 1006, wasClean: false }, live, true],
    ['going away (server restart)', { code: 1001, wasClean: true }, live, true],
    ['normal clean close', { code: 1000, wasClean: true }, live, false],
    ['4401 unauthorized', { code: 4401, wasClean: true }, live, false],
    ['4401 even if unclean', { code: 4401, wasClean: false }, live, false],
    ['4403 session ended', { code: 4403, wasClean: true }, live, false],
    ['no token', { code: 1006, wasClean: false }, { ...live, hasToken: false }, false],
    [
      'closed by the client',
      { code: 1006, wasClean: false },
      { ...live, closedByClient: true },
      false,
    ],
  ])('%s -> %s', (_name, close, state, expected) => {
    expect(shouldReconnect(close, state)).toBe(expected);
  });
});

describe('noticeSocketUrl', () => {
  it('uses wss on https and carries the token in the authorization query', () => {
    expect(noticeSocketUrl('a b', { protocol: 'https:', host: 'console.example' })).toBe(
      'wss://console.example/ws?authorization=a%20b',
    );
    expect(noticeSocketUrl('t', { protocol: 'http:', host: 'localhost:5173' })).toBe(
      'ws://localhost:5173/ws?authorization=t',
    );
  });
});

describe('createNoticeSocket', () => {
  it('opens with the token and hands over parsed notices; other frames are ignored', () => {
    const { socket, onNotice } = setup();
    socket.connect('tok');
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toBe('ws://test/ws?authorization=tok');
    ws.open();
    ws.send({ params: { type: 'message', body: notice } });
    ws.send({ params: { type: 'ping' } });
    ws.send({ params: { type: 'message', body: { id: 1 } } });
    ws.onmessage?.({ data: 'not json' } as MessageEvent);
    expect(onNotice).toHaveBeenCalledTimes(1);
    expect(onNotice).toHaveBeenCalledWith(notice);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('connecting twice with the same token keeps one socket', () => {
    const { socket } = setup();
    socket.connect('tok');
    socket.connect('tok');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('reconnects with growing delays after unclean closes and reports the reconnection', async () => {
    const { socket, onReconnected } = setup();
    socket.connect('tok');
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.serverClose(1006, false);
    await vi.advanceTimersByTimeAsync(749);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.serverClose(1006, false);
    await vi.advanceTimersByTimeAsync(1499);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    expect(onReconnected).toHaveBeenCalledOnce();
    // A successful open starts the backoff again from the first step.
    FakeSocket.all[2]!.serverClose(1001, true);
    await vi.advanceTimersByTimeAsync(750);
    expect(FakeSocket.all).toHaveLength(4);
  });

  it.each([4401, 4403, 1000])('does not reconnect after close code %i', async (code) => {
    const { socket } = setup();
    socket.connect('tok');
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.serverClose(code, true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('does not reconnect once the token is gone, even when the timer was already set', async () => {
    const { socket } = setup();
    socket.connect('tok');
    FakeSocket.all[0]!.serverClose(1006, false);
    token = null;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(socket.isConnected()).toBe(false);
  });

  it('close() (sign-out) closes cleanly and cancels a pending reconnect', async () => {
    const { socket } = setup();
    socket.connect('tok');
    FakeSocket.all[0]!.open();
    expect(socket.isConnected()).toBe(true);
    socket.close();
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);

    socket.connect('tok');
    FakeSocket.all[1]!.serverClose(1006, false);
    socket.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('a new token replaces the connection', () => {
    const { socket } = setup();
    socket.connect('tok');
    socket.connect('tok-2');
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
    expect(FakeSocket.all[1]!.url).toBe('ws://test/ws?authorization=tok-2');
  });
});
