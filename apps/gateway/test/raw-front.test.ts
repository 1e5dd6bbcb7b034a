// The raw front (raw-front.ts): what it takes, what it hands to node:http, and that a client cannot tell the two
// apart. Real sockets, a real Hardhat node behind two gateways (raw front on and off).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import nodePath from 'node:path';
import { gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChains, withUpstreams } from '../src/chains';
import { MemoryKeyStore } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import type { TRawFrontOptions } from '../src/raw-front';
import { attachRawFront, parseHead } from '../src/raw-front';
import type { TGateway } from '../src/server';
import { startGateway } from '../src/server';
import { readSegment } from '../src/usage-journal';
import { call, freePort, makeKey, sleep } from './helpers';

const HEAD = (extra = '', length = 2) =>
  `POST /v1/localnet/k HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n${extra}`;

describe('parseHead', () => {
  it('takes a plain POST and reads the headers it needs', () => {
    const h = parseHead(
      HEAD(
        'Origin: https://a.example\r\naccept-encoding:  gzip, br \r\nX-Forwarded-For: 10.0.0.1\r\nConnection: close\r\n',
      ),
      100,
    );
    expect(h).toEqual({
      url: '/v1/localnet/k',
      contentLength: 2,
      origin: 'https://a.example',
      forwardedFor: '10.0.0.1',
      acceptEncoding: 'gzip, br',
      close: true,
    });
    expect(
      parseHead(HEAD('Content-Encoding: identity\r\nConnection: keep-alive\r\n'), 100)?.close,
    ).toBe(false);
  });

  it.each([
    ['a GET', 'GET /v1/localnet/k HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n'],
    ['HTTP/1.0', 'POST /v1/localnet/k HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\n'],
    [
      'an absolute target',
      'POST http://x/v1/localnet/k HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n',
    ],
    ['a space in the target', 'POST /v1/local net/k HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n'],
    ['no Host', 'POST /v1/localnet/k HTTP/1.1\r\nContent-Length: 2\r\n'],
    ['two Hosts', HEAD('Host: y\r\n')],
    ['no Content-Length', 'POST /v1/localnet/k HTTP/1.1\r\nHost: x\r\n'],
    ['two Content-Lengths', HEAD('Content-Length: 2\r\n')],
    ['a signed Content-Length', HEAD('', '+2' as unknown as number)],
    ['a Content-Length list', HEAD('', '2, 2' as unknown as number)],
    ['a body over the limit', HEAD('', 101)],
    ['Transfer-Encoding', HEAD('Transfer-Encoding: chunked\r\n')],
    ['a gzip body', HEAD('Content-Encoding: gzip\r\n')],
    ['Expect', HEAD('Expect: 100-continue\r\n')],
    ['Upgrade', HEAD('Upgrade: websocket\r\n')],
    ['Connection: upgrade', HEAD('Connection: keep-alive, Upgrade\r\n')],
    ['two Origins', HEAD('Origin: a\r\nOrigin: b\r\n')],
    ['a folded header', HEAD('X-A: 1\r\n  2\r\n')],
    ['a bare LF', HEAD('X-A: 1\nX-B: 2\r\n')],
    ['a bare CR', HEAD('X-A: 1\rX-B: 2\r\n')],
    ['a space before the colon', HEAD('X-A : 1\r\n')],
    ['a control character in a value', HEAD('X-A: 1\u0001\r\n')],
    ['a byte over 0x7e in a value', HEAD('X-A: caf\u00e9\r\n')],
    ['an empty header name', HEAD(': 1\r\n')],
  ])('hands %s to node:http', (_name, head) => {
    expect(parseHead(head, 100)).toBeUndefined();
  });
});

/** Every answer on one raw connection until the server closes it (Content-Length or chunked bodies). */
function readAnswers(
  port: number,
  send: (socket: net.Socket) => Promise<void> | void,
): Promise<{ status: number; headers: Record<string, string>; body: string }[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const answers: { status: number; headers: Record<string, string>; body: string }[] = [];
      let rest = Buffer.concat(chunks).toString('latin1');
      while (rest.startsWith('HTTP/1.1 ')) {
        const end = rest.indexOf('\r\n\r\n');
        const lines = rest.slice(0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1)) {
          const i = l.indexOf(':');
          headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
        }
        rest = rest.slice(end + 4);
        let body = '';
        if (headers['transfer-encoding'] === 'chunked') {
          for (;;) {
            const lineEnd = rest.indexOf('\r\n');
            const size = parseInt(rest.slice(0, lineEnd), 16);
            body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
            rest = rest.slice(lineEnd + 2 + size + 2);
            if (size === 0) break;
          }
        } else {
          const n = Number(headers['content-length'] ?? 0);
          body = rest.slice(0, n);
          rest = rest.slice(n);
        }
        answers.push({ status: Number(lines[0]?.slice(9, 12)), headers, body });
      }
      resolve(answers);
    });
    socket.on('connect', () => {
      Promise.resolve(send(socket)).catch(reject);
    });
  });
}

const post = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('the raw front on the gateway', () => {
  let ln: TLocalnet;
  let raw: TGateway;
  let plain: TGateway;
  const key = makeKey();
  const guarded = makeKey({
    allowlists: { origins: ['https://good.example'], ips: [], contracts: [], methods: [] },
  });
  const port = (g: TGateway) => Number(new URL(g.url).port);
  const path = `/v1/localnet/${key.key}`;

  beforeAll(async () => {
    ln = await startLocalnet({ port: await freePort() });
    const chains = loadChains({}).map((c) =>
      c.id === 'localnet' ? withUpstreams(c, { full: [ln.url] }, [ln.wsUrl]) : c,
    );
    const common = {
      port: 0,
      host: '127.0.0.1',
      chains,
      keys: new MemoryKeyStore([key, guarded]),
      maxBodyBytes: 2048,
      healthCheckIntervalMs: 60_000,
    };
    raw = await startGateway({ ...common, rawFront: true });
    plain = await startGateway({ ...common, rawFront: false });
  });

  afterAll(async () => {
    await raw?.stop();
    await plain?.stop();
    await ln?.stop();
  });

  it('answers exactly as node:http does, for good and bad calls', async () => {
    const longId = 'x'.repeat(60);
    const cases: { path: string; body: string; headers?: Record<string, string> }[] = [
      { path, body: JSON.stringify(call('eth_chainId')) },
      { path, body: '{"jsonrpc":"2.0","id":1,' },
      { path, body: '[]' },
      { path, body: '42' },
      {
        path,
        body: JSON.stringify([call('eth_chainId', [], 1), { id: 2 }, call('no_such', [], 3)]),
      },
      { path, body: JSON.stringify([{ jsonrpc: '2.0', method: 'eth_chainId', params: [] }]) },
      { path, body: JSON.stringify(call('eth_chainId', [], 'é ✓')) },
      { path, body: JSON.stringify(call('eth_sendTransaction', [{}])) },
      { path, body: JSON.stringify(call('eth_chainId')).padEnd(3000, ' ') },
      { path: '/v1/localnet/no-such-key', body: JSON.stringify(call('eth_chainId')) },
      { path: `/v1/nochain/${key.key}`, body: JSON.stringify(call('eth_chainId')) },
      { path: '/v1/localnet', body: '{}' },
      {
        path: `/v1/localnet/${guarded.key}`,
        body: JSON.stringify(call('eth_chainId')),
        headers: { origin: 'https://good.example' },
      },
      {
        path: `/v1/localnet/${guarded.key}`,
        body: JSON.stringify(call('eth_chainId')),
        headers: { origin: 'https://evil.example' },
      },
      // An answer over 1 KiB: gzipped for a client that accepts it.
      {
        path,
        body: JSON.stringify(
          Array.from({ length: 20 }, (_, i) => call('eth_chainId', [], `${longId}${i}`)),
        ),
        headers: { 'accept-encoding': 'gzip' },
      },
    ];
    const keep = [
      'content-type',
      'content-encoding',
      'access-control-allow-origin',
      'vary',
      'retry-after',
      'allow',
    ];
    const ask = async (g: TGateway, c: (typeof cases)[number]) => {
      const res = await fetch(`${g.url}${c.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...c.headers },
        body: c.body,
      });
      return {
        status: res.status,
        headers: Object.fromEntries(keep.map((h) => [h, res.headers.get(h)])),
        body: await res.text(),
      };
    };
    const before = raw.inspect().rawFront()?.handedOver ?? -1;
    for (const c of cases) {
      const [a, b] = [await ask(raw, c), await ask(plain, c)];
      expect(a, `${c.path} ${c.body.slice(0, 40)}`).toEqual(b);
    }
    // The front answered every one itself but the path without a key, which is not a gateway path.
    expect(raw.inspect().rawFront()?.handedOver).toBe(before + 1);
    expect(plain.inspect().rawFront()).toBeUndefined();
  });

  it('answers pipelined requests in order and honours Connection: close', async () => {
    const answers = await readAnswers(port(raw), (s) => {
      s.write(
        post(path, JSON.stringify(call('eth_chainId', [], 1))) +
          post(path, '{bad') +
          post(path, JSON.stringify(call('eth_chainId', [], 3)), 'Connection: close\r\n') +
          post(path, JSON.stringify(call('eth_chainId', [], 4))),
      );
    });
    expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ id: 1, result: '0x7a69' });
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ id: 3 });
    expect(answers[2]!.headers.connection).toBe('close');
    expect(answers[0]!.headers.connection).toBe('keep-alive');
  });

  it('hands the rest of a connection to node:http at the first request it does not take', async () => {
    const before = raw.inspect().rawFront()!.handedOver;
    const chunked = JSON.stringify(call('eth_chainId', [], 2));
    const answers = await readAnswers(port(raw), (s) => {
      s.write(
        post(path, JSON.stringify(call('eth_chainId', [], 1))) +
          'GET /health HTTP/1.1\r\nHost: t\r\n\r\n' +
          `POST ${path} HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n${chunked.length.toString(16)}\r\n${chunked}\r\n0\r\n\r\n` +
          post(path, JSON.stringify(call('eth_chainId', [], 3)), 'Connection: close\r\n'),
      );
    });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers[1]!.body).toBe('{"ok":true}');
    expect(
      answers.map((a) => (a.body.includes('"id"') ? JSON.parse(a.body).id : 'health')),
    ).toEqual([1, 'health', 2, 3]);
    expect(raw.inspect().rawFront()!.handedOver).toBe(before + 1);
  });

  it('lets node:http refuse an ambiguous frame: no smuggled second request is answered', async () => {
    const smuggled = 'GET /health HTTP/1.1\r\nHost: t\r\n\r\n';
    const answers = await readAnswers(port(raw), (s) => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Length: ${smuggled.length + 5}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
      );
    });
    expect(answers.map((a) => a.status)).toEqual([400]);
  });

  it('answers what a client sent before ending its side, then closes', async () => {
    const answers = await readAnswers(port(raw), (s) => {
      s.end(
        post(path, JSON.stringify(call('eth_chainId', [], 1))) +
          post(path, JSON.stringify(call('eth_chainId', [], 2))),
      );
    });
    expect(answers.map((a) => JSON.parse(a.body).id)).toEqual([1, 2]);
  });

  it('reads a head and body that arrive a byte at a time', async () => {
    const bytes = Buffer.from(
      post(path, JSON.stringify(call('eth_chainId', [], 7)), 'Connection: close\r\n'),
    );
    const answers = await readAnswers(port(raw), async (s) => {
      for (const b of bytes) {
        s.write(Buffer.of(b));
        await new Promise((r) => setImmediate(r));
      }
    });
    expect(answers).toHaveLength(1);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ id: 7, result: '0x7a69' });
  });

  it('hands oversize heads and bodies to node:http, which answers as it always did', async () => {
    const [bigHead] = await readAnswers(port(raw), (s) => {
      s.write(post(path, '{}', `X-Big: ${'a'.repeat(20_000)}\r\n`));
    });
    expect(bigHead?.status).toBe(431);
    const body = JSON.stringify(call('eth_chainId')).padEnd(70_000, ' ');
    const [bigBody] = await readAnswers(port(raw), (s) => {
      s.write(post(path, body, 'Connection: close\r\n'));
    });
    expect(bigBody?.status).toBe(413);
    expect(JSON.parse(bigBody!.body).error.message).toMatch(/body/i);
  });

  it('lets a stop finish an answer in flight and close idle connections', async () => {
    const g = await startGateway({
      port: 0,
      host: '127.0.0.1',
      keys: new MemoryKeyStore([key]),
      chains: loadChains({}).map((c) =>
        c.id === 'localnet' ? withUpstreams(c, { full: [ln.url] }, []) : c,
      ),
      healthCheckIntervalMs: 60_000,
    });
    const idle = net.connect(port(g), '127.0.0.1');
    const idleClosed = new Promise((r) => idle.on('close', r));
    await new Promise((r) => idle.on('connect', r));
    idle.write(post(`/v1/localnet/${key.key}`, JSON.stringify(call('eth_chainId'))));
    await new Promise((r) => idle.once('data', r)); // answered; the connection is now idle
    const t0 = Date.now();
    await g.stop();
    await idleClosed;
    expect(Date.now() - t0).toBeLessThan(4000); // not the 5 s force: closed as idle
  });
});

describe('the usage journal with grouped writes', () => {
  it('holds every call by the time its answer arrives: raw front, node:http and WebSocket', async () => {
    const ln = await startLocalnet({ port: await freePort() });
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'raw-front-journal-'));
    const key = makeKey();
    const g = await startGateway({
      port: 0,
      host: '127.0.0.1',
      keys: new MemoryKeyStore([key]),
      chains: loadChains({}).map((c) =>
        c.id === 'localnet' ? withUpstreams(c, { full: [ln.url] }, [ln.wsUrl]) : c,
      ),
      healthCheckIntervalMs: 60_000,
      flushIntervalMs: 60_000,
      usageJournalDir: dir,
      rawFront: true,
    });
    const journaled = () =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.usage'))
        .reduce((n, f) => n + readSegment(nodePath.join(dir, f), 'v1').calls, 0);
    const p = Number(new URL(g.url).port);
    const path = `/v1/localnet/${key.key}`;
    try {
      // Raw front: several pipelined calls answered in one turn; each answer finds its call on disk.
      const seen: number[] = [];
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(p, '127.0.0.1');
        let text = '';
        s.on('data', (d: Buffer) => {
          text += d.toString('latin1');
          seen.push(journaled()); // read synchronously, as the bytes arrive
          if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 3) {
            s.destroy();
            resolve();
          }
        });
        s.on('error', reject);
        s.write(
          [1, 2, 3].map((i) => post(path, JSON.stringify(call('eth_chainId', [], i)))).join(''),
        );
      });
      expect(seen[0]).toBeGreaterThanOrEqual(1);
      expect(seen.at(-1)).toBe(3);
      // node:http (a gzip body is handed over).
      const before = journaled();
      const zipped = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            port: p,
            host: '127.0.0.1',
            path,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          },
          (res) => {
            res.once('data', () => resolve(journaled()));
            res.resume();
          },
        );
        req.on('error', reject);
        req.end(gzipSync(JSON.stringify(call('eth_chainId'))));
      });
      expect(zipped).toBe(before + 1);
      expect(g.inspect().rawFront()?.handedOver).toBe(1);
      // WebSocket.
      const ws = new WebSocket(`ws://127.0.0.1:${p}${path}`);
      await new Promise((r, j) => ws.once('open', r).once('error', j));
      const onWs = await new Promise<number>((resolve) => {
        ws.once('message', () => resolve(journaled()));
        ws.send(JSON.stringify(call('eth_chainId', [], 9)));
      });
      expect(onWs).toBe(before + 2);
      ws.close();
    } finally {
      await g.stop();
      await ln.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('attachRawFront hand-over', () => {
  it('a connection handed to node:http that nobody reads stops being read: the gateway holds no more than a stream', async () => {
    // An upgrade node:http hands to a listener that never reads (a refused upgrade, ended): the client keeps
    // sending. With reads into the front's buffer, a full stream must stop reading, as 'data' reads do.
    const server = http.createServer((_req, res) => res.end('node'));
    attachRawFront(server, {
      keepAliveTimeoutMs: 5000,
      route: () => undefined,
      serve: () => {},
    });
    let held: net.Socket | undefined;
    let headBytes = 0;
    server.on('upgrade', (_req, socket: net.Socket, head: Buffer) => {
      held = socket; // neither read nor paused: the stream alone must stop the reads when it is full
      headBytes = head.length; // what was read with the upgrade request
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    client.on('error', () => {});
    try {
      await new Promise<void>((r) => client.once('connect', () => r()));
      client.write(
        'GET /v1/x/y HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      );
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      const until = Date.now() + 1500;
      while (Date.now() < until && sent < 64 * 1024 * 1024) {
        if (client.writableNeedDrain) await sleep(20);
        else {
          client.write(chunk);
          sent += chunk.length;
        }
      }
      await sleep(200);
      expect(held).toBeDefined();
      // A stream's high-water mark plus a read or two: not the megabytes the client pushed.
      expect(held!.readableLength).toBeLessThan(1024 * 1024);
      expect(sent).toBeGreaterThan(held!.readableLength);
      // And the bytes are all still there for a reader that resumes.
      let got = 0;
      held!.on('data', (d: Buffer) => (got += d.length));
      held!.resume();
      client.end();
      await new Promise((r) => held!.once('end', r));
      expect(headBytes + got).toBe(sent);
    } finally {
      client.destroy();
      held?.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

/** A node:http server with the raw front attached, listening on a free port, for `use`; closed after it. */
async function withRawFront<T>(
  opts: TRawFrontOptions<T>,
  use: (port: number) => Promise<void>,
): Promise<void> {
  const server = http.createServer((_req, res) => res.end('node'));
  attachRawFront(server, opts);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await use((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe('attachRawFront answers', () => {
  it('writes Buffer bodies byte for byte, short ones as one latin1 string and long ones head and body apart', async () => {
    // Every byte value, UTF-8 text included: the one-string path must not re-encode any of them.
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const utf8 = Buffer.from('{"result":"caf\u00e9 \u20ac \ud83d\ude00"}');
    const long = Buffer.alloc(40_000, all);
    const bodies: Record<string, Buffer> = { '/all': all, '/utf8': utf8, '/long': long };
    const front: TRawFrontOptions<string> = {
      keepAliveTimeoutMs: 5000,
      route: (url) => (url in bodies ? url : undefined),
      serve: (out, _req, route) =>
        out.reply(200, { 'content-type': 'application/octet-stream' }, bodies[route]),
    };
    await withRawFront(front, async (p) => {
      const answers = await readAnswers(p, (s) => {
        s.write(
          post('/all', '{}') + post('/utf8', '{}') + post('/long', '{}', 'Connection: close\r\n'),
        );
      });
      expect(answers.map((a) => a.headers['content-length'])).toEqual([
        '256',
        String(utf8.length),
        '40000',
      ]);
      expect(Buffer.from(answers[0]?.body ?? '', 'latin1').equals(all)).toBe(true);
      expect(Buffer.from(answers[1]?.body ?? '', 'latin1').equals(utf8)).toBe(true);
      expect(Buffer.from(answers[2]?.body ?? '', 'latin1').equals(long)).toBe(true);
    });
  });
});

describe('attachRawFront head cache', () => {
  it('serves each request by its own head, long heads (not kept) and short ones (kept) alike', async () => {
    const front: TRawFrontOptions<string> = {
      keepAliveTimeoutMs: 5000,
      route: (url) => (url.startsWith('/raw/') ? url : undefined),
      serve: (out, req, route) =>
        out.reply(200, { 'content-type': 'text/plain' }, `${route} ${req.origin ?? '-'}`),
    };
    await withRawFront(front, async (p) => {
      const pad = `X-Pad: ${'p'.repeat(3000)}\r\n`;
      const answers = await readAnswers(p, (s) => {
        s.write(
          post('/raw/a', '{}', pad + 'Origin: https://a.example\r\n') +
            post('/raw/a', '{}', pad + 'Origin: https://a.example\r\n') +
            post('/raw/b', '{}', pad) +
            post('/raw/b', '{}') +
            post('/raw/b', '{}') +
            post('/raw/d', '{}') +
            post('/raw/c', '{}', 'Origin: https://c.example\r\nConnection: close\r\n'),
        );
      });
      expect(answers.map((a) => a.body)).toEqual([
        '/raw/a https://a.example',
        '/raw/a https://a.example',
        '/raw/b -',
        '/raw/b -',
        '/raw/b -',
        '/raw/d -',
        '/raw/c https://c.example',
      ]);
    });
  });
});

describe('attachRawFront timeouts', () => {
  /** A front answering POST /raw with "raw", after `answerAfterMs` when set; request timeout 200 ms. */
  const rawFront = (keepAliveTimeoutMs: number, answerAfterMs = 0): TRawFrontOptions<string> => ({
    keepAliveTimeoutMs,
    requestTimeoutMs: 200,
    route: (url) => (url === '/raw' ? url : undefined),
    serve: (out) => {
      const answer = () => out.reply(200, { 'content-type': 'text/plain' }, 'raw');
      if (answerAfterMs > 0) setTimeout(answer, answerAfterMs);
      else answer();
    },
  });

  it('closes an idle connection after the keep-alive timeout and a slow request after the request timeout', async () => {
    await withRawFront(rawFront(150), async (p) => {
      // Idle after an answer: closed by the keep-alive timeout.
      const t0 = Date.now();
      const idle = await readAnswers(p, (s) => {
        s.write('POST /raw HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n');
      });
      expect(idle.map((a) => a.body)).toEqual(['raw']);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
      // A head dripped slower than the request timeout: cut, never answered.
      const slow = await readAnswers(p, async (s) => {
        s.write('POST /raw HTTP/1.1\r\n');
        for (let i = 0; i < 4; i++) {
          await sleep(100);
          if (s.destroyed) return;
          s.write('X: 1\r\n');
        }
      });
      expect(slow).toEqual([]);
    });
  });

  it('cuts a head that stops coming by the request timeout, not a slow answer, and keeps idle connections with a keep-alive timeout of 0', async () => {
    // Keep-alive 1 s: only the request timeout (200 ms) can cut the stalled head before 1 s.
    await withRawFront(rawFront(1000), async (p) => {
      const t0 = Date.now();
      const stalled = await readAnswers(p, (s) => {
        s.write('POST /raw HTTP/1.1\r\nHost: t\r\n');
      });
      expect(stalled).toEqual([]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
      expect(Date.now() - t0).toBeLessThan(1000);
    });
    // An answer slower than the request timeout with the next request already read: both answered, the second
    // request is timed from the first answer on.
    await withRawFront(rawFront(1000, 350), async (p) => {
      const both = await readAnswers(p, (s) => {
        s.write(post('/raw', '{}') + post('/raw', '{}', 'Connection: close\r\n'));
      });
      expect(both.map((x) => x.body)).toEqual(['raw', 'raw']);
    });
    // Keep-alive 0: no idle timeout (node:http's meaning); the connection is still open after 400 ms.
    await withRawFront(rawFront(0), async (p) => {
      const socket = net.connect(p, '127.0.0.1');
      let closed = false;
      socket.on('close', () => (closed = true));
      socket.resume(); // read the answer, so a close by the server would be seen
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(post('/raw', '{}'));
      await sleep(400);
      expect(closed).toBe(false);
      socket.destroy();
    });
  });
});
