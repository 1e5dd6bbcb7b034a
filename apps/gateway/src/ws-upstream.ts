/**
 * One shared WebSocket to a chain's node for every client socket of this process: calls go up with our own ids
 * (so a client's ids may repeat or collide with another client's), and a subscription asked by several clients
 * with the same parameters is made once upstream and fanned out.
 */
import type { RawData } from 'ws';
import { WebSocket } from 'ws';

/** One JSON-RPC answer item from the node, with the size of its own serialisation. */
export type TUpItem = { item: Record<string, unknown>; bytes: number };

/** Receives a subscription's notifications (the `result` member, serialised) or its end. */
export type TSubListener = {
  onNotification(resultJson: string): void;
  onEnd(reason: string): void;
};

type TRequest = {
  remaining: number;
  items: Map<number, TUpItem>;
  done: (items: Map<number, TUpItem>) => void;
};

type TUpSub = {
  /** The node's subscription id, once it answered. */
  upstreamId?: string;
  listeners: Set<TSubListener>;
  /** Waiting for the node's answer to eth_subscribe. */
  waiting: ((err: Record<string, unknown> | undefined) => void)[];
};

export class WsUpstream {
  private socket: WebSocket | undefined;
  private attempt = 0;
  private nextId = 1;
  private readonly requests = new Map<number, TRequest>();
  private readonly outbox: string[] = [];
  /** Subscriptions by their parameters (JSON), and by the node's id for incoming notifications. */
  private readonly subsByParams = new Map<string, TUpSub>();
  private readonly subsByUpstreamId = new Map<string, TUpSub>();
  private closed = false;

  constructor(private readonly urls: string[]) {}

  /** Live subscriptions upstream (tests: shared subscriptions are made once). */
  get upstreamSubscriptions(): number {
    return this.subsByUpstreamId.size;
  }

  /**
   * Sends calls (`{method, params}` without id) as one message, a batch when there are several; `done` gets the
   * answers by position (a position without an answer failed) exactly once.
   */
  send(calls: Record<string, unknown>[], done: (items: Map<number, TUpItem>) => void): void {
    const ids = calls.map(() => this.nextId++);
    const req: TRequest = {
      remaining: calls.length,
      items: new Map(),
      done: (byId) => {
        const byPos = new Map<number, TUpItem>();
        ids.forEach((id, pos) => {
          const it = byId.get(id);
          if (it) byPos.set(pos, it);
        });
        done(byPos);
      },
    };
    for (const id of ids) this.requests.set(id, req);
    const body = calls.map((c, i) => ({ ...c, jsonrpc: '2.0', id: ids[i] }));
    this.write(JSON.stringify(body.length === 1 ? body[0] : body));
  }

  /**
   * Adds a listener to the subscription with these params, subscribing upstream when it is the first. `ready` gets
   * undefined once notifications flow, or the node's error object.
   */
  subscribe(
    params: unknown,
    listener: TSubListener,
    ready: (err: Record<string, unknown> | undefined) => void,
  ): void {
    const key = JSON.stringify(params);
    const existing = this.subsByParams.get(key);
    if (existing) {
      existing.listeners.add(listener);
      if (existing.upstreamId !== undefined) ready(undefined);
      else existing.waiting.push(ready);
      return;
    }
    const sub: TUpSub = { listeners: new Set([listener]), waiting: [ready] };
    this.subsByParams.set(key, sub);
    this.send([{ method: 'eth_subscribe', params }], (items) => {
      const answer = items.get(0)?.item;
      const id = answer?.result;
      const waiting = sub.waiting;
      sub.waiting = [];
      if (typeof id !== 'string') {
        this.subsByParams.delete(key);
        const err = (answer?.error as Record<string, unknown> | undefined) ?? {
          code: -32010,
          message: 'no upstream node answered; try again',
        };
        for (const w of waiting) w(err);
        return;
      }
      sub.upstreamId = id;
      this.subsByUpstreamId.set(id, sub);
      if (sub.listeners.size === 0) this.dropUpstream(key, sub);
      for (const w of waiting) w(undefined);
    });
  }

  /** Removes a listener; the last one out unsubscribes upstream. */
  unsubscribe(params: unknown, listener: TSubListener): void {
    const key = JSON.stringify(params);
    const sub = this.subsByParams.get(key);
    if (!sub) return;
    sub.listeners.delete(listener);
    if (sub.listeners.size === 0 && sub.upstreamId !== undefined) this.dropUpstream(key, sub);
  }

  private dropUpstream(key: string, sub: TUpSub): void {
    this.subsByParams.delete(key);
    if (sub.upstreamId === undefined) return;
    this.subsByUpstreamId.delete(sub.upstreamId);
    this.send([{ method: 'eth_unsubscribe', params: [sub.upstreamId] }], () => {});
  }

  close(): void {
    this.closed = true;
    this.socket?.terminate();
    this.fail('gateway stopping');
  }

  private write(text: string): void {
    if (this.closed) {
      this.fail('gateway stopping');
      return;
    }
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
    else {
      this.outbox.push(text);
      if (!this.socket) this.connect();
    }
  }

  private connect(): void {
    const url = this.urls[this.attempt % this.urls.length] as string;
    const up = new WebSocket(url, { perMessageDeflate: false });
    this.socket = up;
    let opened = false;
    up.on('open', () => {
      opened = true;
      this.attempt = 0;
      for (const m of this.outbox) up.send(m);
      this.outbox.length = 0;
    });
    up.on('message', (data: RawData) => this.onMessage(data.toString()));
    up.on('error', () => {
      // surfaced through 'close'
    });
    up.on('close', () => {
      if (this.socket !== up) return;
      this.socket = undefined;
      // Never opened: try the next URL while any remain for this round; otherwise everything waiting fails.
      if (!opened && !this.closed && this.attempt + 1 < this.urls.length) {
        this.attempt += 1;
        this.connect();
        return;
      }
      this.attempt = 0;
      this.fail('upstream closed');
    });
  }

  /** The connection is gone: every waiting call gets what it has, every subscription ends. */
  private fail(reason: string): void {
    this.outbox.length = 0;
    const requests = new Set(this.requests.values());
    this.requests.clear();
    for (const r of requests) r.done(r.items);
    const subs = [...this.subsByParams.values()];
    this.subsByParams.clear();
    this.subsByUpstreamId.clear();
    for (const s of subs) {
      const err = { code: -32010, message: reason };
      for (const w of s.waiting) w(err);
      for (const l of s.listeners) l.onEnd(reason);
    }
  }

  private onMessage(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not JSON: nothing to route
    }
    if (Array.isArray(parsed)) {
      for (const it of parsed) this.onItem(it, Buffer.byteLength(JSON.stringify(it)));
    } else this.onItem(parsed, Buffer.byteLength(text));
  }

  private onItem(it: unknown, bytes: number): void {
    if (!it || typeof it !== 'object') return;
    const o = it as Record<string, unknown>;
    if (o.method === 'eth_subscription') {
      const p = o.params as { subscription?: unknown; result?: unknown } | undefined;
      const sub = typeof p?.subscription === 'string' && this.subsByUpstreamId.get(p.subscription);
      if (!sub) return;
      const resultJson = JSON.stringify(p?.result ?? null);
      for (const l of [...sub.listeners]) l.onNotification(resultJson);
      return;
    }
    if (typeof o.id !== 'number') return;
    const req = this.requests.get(o.id);
    if (!req) return;
    this.requests.delete(o.id);
    req.items.set(o.id, { item: o, bytes });
    req.remaining -= 1;
    if (req.remaining === 0) req.done(req.items);
  }
}
