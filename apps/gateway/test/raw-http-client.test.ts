// The raw upstream client (raw-http-client.ts) against a real socket server that answers in every framing an
// upstream may use, split anywhere, and misbehaves in the ways upstreams do.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChains, withUpstreams } from '../src/chains';
import { RawHttpClient } from '../src/raw-http-client';
import { UpstreamSet } from '../src/upstreams';
import { sleep } from './helpers';

type TAnswer = (req: string, socket: net.Socket, n: number) => unknown;

/** A server that reads each POST (head and Content-Length body) and lets `answer` write whatever it likes. */
async function upstream(answer: TAnswer) {
  let connections = 0;
  let requests = 0;
  /** Requests read per connection, and the most read off one `data` event (several: they came in one write). */
  const perConnection: number[] = [];
  /** The ids ({"id":n} bodies) read on each connection, in order, and the requests of each read. */
  const idsPerConnection: number[][] = [];
  const reads: number[] = [];
  let mostInOneRead = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = connections++;
    perConnection[index] = 0;
    idsPerConnection[index] = [];
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      let read = 0;
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) break;
        const req = buf.slice(0, end + 4 + length);
        buf = buf.slice(end + 4 + length);
        perConnection[index] = (perConnection[index] ?? 0) + 1;
        const id = /"id":(\d+)/.exec(req)?.[1];
        if (id !== undefined) idsPerConnection[index]?.push(Number(id));
        mostInOneRead = Math.max(mostInOneRead, ++read);
        void answer(req, socket, requests++);
      }
      if (read > 0) reads.push(read);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    stats: () => ({
      connections,
      requests,
      open: sockets.size,
      perConnection,
      idsPerConnection,
      reads,
      mostInOneRead,
    }),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const clients: RawHttpClient[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function setup(answer: TAnswer, opts: Partial<RawHttpClient['opts']> = {}) {
  const up = await upstream(answer);
  closers.push(up.close);
  const client = new RawHttpClient('127.0.0.1', up.port, `127.0.0.1:${up.port}`, {
    connections: 4,
    timeoutMs: 2000,
    connectTimeoutMs: 1000,
    ...opts,
  });
  clients.push(client);
  const post = (body: string | Buffer = '{"id":1}', path = '/rpc?k=1', quick = false) =>
    new Promise<{ err: Error | null; status: number; body: string }>((resolve) =>
      client.post(
        path,
        body,
        (err, status, b) => resolve({ err, status, body: b.toString('utf8') }),
        quick,
      ),
    );
  /** Quick posts of one event-loop turn, bodies {"id":i} (as Buffers with `asBuffer`). */
  const quick = (ids: number[], asBuffer = false) =>
    Promise.all(
      ids.map((i) => post(asBuffer ? Buffer.from(`{"id":${i}}`) : `{"id":${i}}`, '/rpc?k=1', true)),
    );
  return { up, client, post, quick };
}

/** Writes `text` one byte at a time, each in its own packet. */
async function drip(socket: net.Socket, text: string) {
  for (const b of Buffer.from(text, 'utf8')) {
    socket.write(Buffer.of(b));
    await sleep(1);
  }
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('RawHttpClient', () => {
  it('sends the call as a keep-alive POST and reuses the connection', async () => {
    const seen: string[] = [];
    const { up, post } = await setup((req, s) => {
      seen.push(req);
      s.write(ok('{"result":"é"}'));
    });
    expect(await post('{"id":"✓"}')).toEqual({ err: null, status: 200, body: '{"result":"é"}' });
    expect(await post()).toMatchObject({ status: 200 });
    expect(up.stats()).toMatchObject({ connections: 1, requests: 2 });
    expect(seen[0]).toMatch(/^POST \/rpc\?k=1 HTTP\/1\.1\r\n/);
    expect(seen[0]).toContain(`host: 127.0.0.1:${up.port}\r\n`);
    expect(seen[0]).toContain('content-length: 12\r\n'); // bytes, not characters
    // The UTF-8 bytes (the server reads them as latin1).
    expect(seen[0]?.endsWith(`\r\n\r\n${Buffer.from('{"id":"✓"}').toString('latin1')}`)).toBe(true);
  });

  it('reads a Content-Length answer split at every byte', async () => {
    const { post } = await setup((_req, s) => drip(s, ok('{"result":"0x1"}')));
    expect(await post()).toEqual({ err: null, status: 200, body: '{"result":"0x1"}' });
  });

  it('reads chunked answers with extensions and trailers, split at every byte, and skips 1xx answers', async () => {
    const body =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n' +
      '5;ext=1\r\n{"res\r\nB\r\nult":"0x2"}\r\n0\r\nx-trailer: 1\r\n\r\n';
    const { up, post } = await setup((_req, s) => drip(s, body));
    expect(await post()).toEqual({ err: null, status: 200, body: '{"result":"0x2"}' });
    expect(await post()).toEqual({ err: null, status: 200, body: '{"result":"0x2"}' });
    expect(up.stats().connections).toBe(1);
  });

  it('reads an answer framed by the close of the connection, and HTTP/1.0 answers are not reused', async () => {
    const { up, post } = await setup((req, s) => {
      if (req.includes('"id":1')) s.end('HTTP/1.1 200 OK\r\n\r\n{"result":"until close"}');
      else s.write('HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\n{}');
    });
    expect(await post('{"id":1}')).toEqual({
      err: null,
      status: 200,
      body: '{"result":"until close"}',
    });
    expect(await post('{"id":2}')).toEqual({ err: null, status: 200, body: '{}' });
    expect(await post('{"id":2}')).toEqual({ err: null, status: 200, body: '{}' });
    expect(up.stats().connections).toBe(3);
  });

  it('does not reuse a connection past the keep-alive hint', async () => {
    const { up, post } = await setup((_req, s) => s.write(ok('{}', 'keep-alive: timeout=1\r\n')));
    await post();
    await post();
    expect(up.stats().connections).toBe(2); // a 1 s hint leaves no time to reuse (a second of margin)
  });

  it('opens at most `connections` connections and queues the rest', async () => {
    const { up, post } = await setup(
      async (req, s) => {
        await sleep(20);
        s.write(ok(req.slice(req.indexOf('\r\n\r\n') + 4)));
      },
      { connections: 2 },
    );
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => post(`{"id":${i}}`)));
    expect(answers.map((a) => a.body)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `{"id":${i}}`));
    expect(up.stats().connections).toBe(2);
  });

  it('fails a post on a timeout, a cut answer, a refused connection and a malformed answer', async () => {
    const silent = await setup(() => {}, { timeoutMs: 150 });
    const t = await silent.post();
    expect(t.err).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });

    const cut = await setup((_req, s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"res');
      setTimeout(() => s.destroy(), 10);
    });
    expect((await cut.post()).err).toMatchObject({ code: 'UPSTREAM_SOCKET' });

    const gone = await upstream(() => {});
    await gone.close();
    const refused = new RawHttpClient('127.0.0.1', gone.port, 'x', {
      connections: 1,
      timeoutMs: 1000,
      connectTimeoutMs: 1000,
    });
    clients.push(refused);
    const r = await new Promise<Error | null>((resolve) =>
      refused.post('/', '{}', (e) => resolve(e)),
    );
    expect(r).toMatchObject({ code: 'ECONNREFUSED' });

    for (const bad of [
      'hello\r\n\r\n',
      'HTTP/1.1 2xx OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n',
    ]) {
      const m = await setup((_req, s) => s.write(bad));
      expect((await m.post()).err, bad).toMatchObject({ code: 'UPSTREAM_PROTOCOL' });
    }
  });

  it('drops a connection that sends bytes nobody asked for, and one the upstream closed while idle', async () => {
    const { up, post } = await setup((_req, s, n) => {
      if (n === 0)
        s.write(ok('{}') + 'HTTP/1.1 200 OK\r\n'); // a second answer nobody asked for
      else if (n === 1) {
        s.write(ok('{}'));
        setTimeout(() => s.end(), 5); // closed while idle
      } else s.write(ok('{"n":2}'));
    });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    await sleep(50);
    expect(await post()).toEqual({ err: null, status: 200, body: '{"n":2}' });
    expect(up.stats().connections).toBe(3);
  });

  it('close() fails queued posts, lets the one in flight finish, and ends its connections', async () => {
    const { up, client } = await setup(
      async (_req, s) => {
        await sleep(50);
        s.write(ok('{"late":true}'));
      },
      { connections: 1 },
    );
    const results: (string | null)[] = [];
    const p1 = new Promise<void>((r) =>
      client.post('/', '{}', (e, _s, b) => {
        results[0] = e ? e.message : b.toString();
        r();
      }),
    );
    const p2 = new Promise<void>((r) =>
      client.post('/', '{}', (e) => {
        results[1] = e ? ((e as { code?: string }).code ?? 'error') : null;
        r();
      }),
    );
    await sleep(5);
    await Promise.all([client.close(), p1, p2]);
    expect(results).toEqual(['{"late":true}', 'UPSTREAM_CLOSED']);
    await sleep(20);
    expect(up.stats().open).toBe(0);
  });
});

/** The request's body: the upstreams here echo it, so each answer names the call it belongs to. */
const bodyOf = (req: string) => req.slice(req.indexOf('\r\n\r\n') + 4);
const bodies = (answers: { err: Error | null; body: string }[]) =>
  answers.map((a) => (a.err ? (a.err as { code?: string }).code : a.body));
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('RawHttpClient pipelining (quick posts)', () => {
  it('writes the quick posts of one turn together on one connection, each answered with its own body', async () => {
    const { up, quick } = await setup((req, s) => s.write(ok(bodyOf(req))), { pipelineDepth: 8 });
    const answers = await quick(ids(1, 6));
    expect(bodies(answers)).toEqual(ids(1, 6).map((i) => `{"id":${i}}`));
    expect(up.stats()).toMatchObject({ connections: 1, requests: 6, mostInOneRead: 6 });
    // The connection is reused for the next turn's posts.
    expect(bodies(await quick([7, 8]))).toEqual(['{"id":7}', '{"id":8}']);
    expect(up.stats().connections).toBe(1);
  });

  it('reads answers of every framing back to back, split at every byte, in order', async () => {
    const answers: string[] = [];
    const framed = (body: string, n: number) =>
      n % 3 === 0
        ? ok(body)
        : n % 3 === 1
          ? `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\n${body.slice(0, 3)}\r\n${(body.length - 3).toString(16)}\r\n${body.slice(3)}\r\n0\r\n\r\n`
          : `HTTP/1.1 100 Continue\r\n\r\n${ok(body)}`;
    const { up, quick } = await setup(
      (req, s, n) => {
        answers.push(framed(bodyOf(req), n));
        // All five answers at once, one byte per packet.
        if (answers.length === 5) void drip(s, answers.join(''));
      },
      { pipelineDepth: 8 },
    );
    expect(bodies(await quick(ids(1, 5)))).toEqual(ids(1, 5).map((i) => `{"id":${i}}`));
    expect(up.stats().connections).toBe(1);
  });

  it('puts at most pipelineDepth posts on a connection, and never pipelines posts not marked quick', async () => {
    const { up, post, quick } = await setup((req, s) => s.write(ok(bodyOf(req))), {
      pipelineDepth: 4,
      connections: 8,
    });
    expect(bodies(await quick(ids(1, 10)))).toEqual(ids(1, 10).map((i) => `{"id":${i}}`));
    expect(up.stats().perConnection.slice(0, 3)).toEqual([4, 4, 2]);
    await sleep(20);
    const before = up.stats().connections;
    const plain = await Promise.all(ids(1, 5).map((i) => post(`{"id":${i}}`)));
    expect(bodies(plain)).toEqual(ids(1, 5).map((i) => `{"id":${i}}`));
    // 3 idle connections reused, 2 opened: one post each.
    expect(up.stats().connections).toBe(before + 2);
    expect(up.stats().mostInOneRead).toBe(4);
  });

  it('a connection awaiting answers takes no more: a slow answer holds back only the posts written with it', async () => {
    // Answers in order on each connection, as HTTP/1.1 asks: call 2 waits behind call 1.
    const turn = new WeakMap<net.Socket, Promise<void>>();
    const { up, quick } = await setup(
      (req, s) => {
        const next = (turn.get(s) ?? Promise.resolve()).then(async () => {
          if (req.includes('"id":1')) await sleep(300);
          s.write(ok(bodyOf(req)));
        });
        turn.set(s, next);
      },
      { pipelineDepth: 8 },
    );
    let firstDone = false;
    const first = quick([1, 2]).then((a) => {
      firstDone = true;
      return a;
    });
    await sleep(20);
    expect(bodies(await quick([3, 4]))).toEqual(['{"id":3}', '{"id":4}']);
    expect(firstDone).toBe(false); // 3 and 4 did not wait behind call 1
    expect(bodies(await first)).toEqual(['{"id":1}', '{"id":2}']);
    expect(up.stats().perConnection).toEqual([2, 2]);
  });

  it('queued quick posts leave together when a connection frees', async () => {
    const { up, quick } = await setup(
      async (req, s) => {
        await sleep(30);
        s.write(ok(bodyOf(req)));
      },
      { pipelineDepth: 3, connections: 1 },
    );
    const first = quick([1]);
    await sleep(5);
    const rest = quick(ids(2, 8));
    expect(bodies(await first)).toEqual(['{"id":1}']);
    expect(bodies(await rest)).toEqual(ids(2, 8).map((i) => `{"id":${i}}`));
    expect(up.stats()).toMatchObject({ connections: 1, mostInOneRead: 3 });
  });

  it('an answer that closes the connection: the posts behind it go again and pipelining ends for the upstream', async () => {
    for (const closing of [
      (body: string) => ok(body, 'connection: close\r\n'),
      (body: string) => `HTTP/1.0 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      (body: string) => `HTTP/1.1 200 OK\r\n\r\n${body}`, // framed by the close
    ]) {
      const { up, client, quick } = await setup(
        (req, s) => {
          // Answers the first request of each connection, then closes without reading on.
          if (s.readableEnded || (s as net.Socket & { answered?: boolean }).answered) return;
          (s as net.Socket & { answered?: boolean }).answered = true;
          s.end(closing(bodyOf(req)));
        },
        { pipelineDepth: 8, connections: 4 },
      );
      expect(bodies(await quick(ids(1, 5)))).toEqual(ids(1, 5).map((i) => `{"id":${i}}`));
      expect(client.pipelineDepth).toBe(1);
      expect(up.stats().perConnection[0]).toBe(5); // all five were written on the first one
      expect(up.stats().mostInOneRead).toBe(5);
      const before = up.stats().requests;
      expect(bodies(await quick([6, 7]))).toEqual(['{"id":6}', '{"id":7}']);
      expect(up.stats().requests - before).toBe(2); // one each, not pipelined
    }
  });

  it('a connection that fails fails every post written on it, as it fails one', async () => {
    const cut = await setup(
      (_req, s, n) => {
        if (n === 2) s.destroy();
      },
      { pipelineDepth: 8 },
    );
    expect(bodies(await cut.quick([1, 2, 3]))).toEqual([
      'UPSTREAM_SOCKET',
      'UPSTREAM_SOCKET',
      'UPSTREAM_SOCKET',
    ]);
    const silent = await setup(() => {}, { pipelineDepth: 8, timeoutMs: 150 });
    expect(bodies(await silent.quick([1, 2]))).toEqual(['UPSTREAM_TIMEOUT', 'UPSTREAM_TIMEOUT']);
    const bad = await setup(
      (req, s) => s.write(req.includes('"id":1') ? ok('{}') : 'nonsense\r\n\r\n'),
      {
        pipelineDepth: 8,
      },
    );
    expect(bodies(await bad.quick([1, 2, 3]))).toEqual([
      '{}',
      'UPSTREAM_PROTOCOL',
      'UPSTREAM_PROTOCOL',
    ]);
    // The client is still usable after each.
    expect(bodies(await bad.quick([1]))).toEqual(['{}']);
  });

  it('Buffer bodies are pipelined too (written corked, one packet)', async () => {
    const { up, quick } = await setup((req, s) => s.write(ok(bodyOf(req))), { pipelineDepth: 8 });
    expect(bodies(await quick(ids(1, 4), true))).toEqual(ids(1, 4).map((i) => `{"id":${i}}`));
    expect(up.stats()).toMatchObject({ connections: 1, mostInOneRead: 4 });
  });

  it('a queue of quick and plain posts: the quick ones in a row leave together, a plain one alone', async () => {
    const { up, client, post } = await setup(
      async (req, s) => {
        await sleep(20);
        s.write(ok(bodyOf(req)));
      },
      { pipelineDepth: 8, connections: 1 },
    );
    const send = (id: number, q: boolean) => post(`{"id":${id}}`, '/', q);
    const first = send(1, true);
    await sleep(5);
    const rest = [send(2, true), send(3, true), send(4, false), send(5, true), send(6, true)];
    expect(bodies([await first, ...(await Promise.all(rest))])).toEqual(
      ids(1, 6).map((i) => `{"id":${i}}`),
    );
    expect(up.stats().reads).toEqual([1, 2, 1, 2]);
    expect(client.pipelineDepth).toBe(8);
  });

  it('posts not yet written when their connection goes are sent on another', async () => {
    const { up, client, quick } = await setup((req, s) => s.write(ok(bodyOf(req))), {
      pipelineDepth: 8,
    });
    const answers = quick(ids(1, 3));
    // The connection taking this turn's posts is destroyed before its write (as on a close that lands first).
    (client as unknown as { filling: { destroy(): void } }).filling.destroy();
    expect(bodies(await answers)).toEqual(ids(1, 3).map((i) => `{"id":${i}}`));
    expect(up.stats().requests).toBe(3);
  });

  it('an answer framed by the close: the posts behind it go first, before those queued meanwhile', async () => {
    const { up, client, quick } = await setup(
      async (req, s) => {
        if ((s as net.Socket & { answered?: boolean }).answered) return;
        (s as net.Socket & { answered?: boolean }).answered = true;
        await sleep(20);
        s.end(`HTTP/1.1 200 OK\r\n\r\n${bodyOf(req)}`);
      },
      { pipelineDepth: 8, connections: 1 },
    );
    const first = quick(ids(1, 3));
    await sleep(5);
    const second = quick(ids(4, 6)); // queued: the only connection is busy
    expect(bodies([...(await first), ...(await second)])).toEqual(
      ids(1, 6).map((i) => `{"id":${i}}`),
    );
    expect(up.stats().idsPerConnection).toEqual([[1, 2, 3], [2], [3], [4], [5], [6]]);
    expect(client.pipelineDepth).toBe(1);
  });

  it('an upstream that closes a connection after many answers (a keep-alive request cap) keeps pipelining', async () => {
    const { up, client, quick } = await setup(
      (req, s, n) => {
        // The 20th answer of the connection says close; what was written behind it is not read.
        if (n === 19) s.end(ok(bodyOf(req), 'connection: close\r\n'));
        else if (n < 19) s.write(ok(bodyOf(req)));
        else if (!s.writableEnded) s.write(ok(bodyOf(req)));
      },
      { pipelineDepth: 8 },
    );
    for (let from = 1; from <= 16; from += 4)
      expect(bodies(await quick(ids(from, from + 3)))).toHaveLength(4);
    expect(bodies(await quick(ids(17, 24)))).toEqual(ids(17, 24).map((i) => `{"id":${i}}`));
    expect(client.pipelineDepth).toBe(8);
    expect(up.stats().idsPerConnection[1]?.slice(0, 4)).toEqual([21, 22, 23, 24]);
  });

  it('a done that throws: the others are still told, and the error is reported', async () => {
    const reported: unknown[] = [];
    const { client } = await setup(
      (req, s, n) => {
        if (n < 3) s.write(ok(bodyOf(req)));
        else s.destroy();
      },
      { pipelineDepth: 8, onCallbackError: (e) => reported.push(e) },
    );
    const run = (ids: number[]) =>
      Promise.all(
        ids.map(
          (i) =>
            new Promise<string>((resolve) =>
              client.post(
                '/',
                `{"id":${i}}`,
                (err, _s, b) => {
                  resolve(err ? ((err as { code?: string }).code ?? 'error') : b.toString());
                  if (i % 2 === 1) throw new Error(`caller ${i}`);
                },
                true,
              ),
            ),
        ),
      );
    expect(await run([1, 2, 3])).toEqual(['{"id":1}', '{"id":2}', '{"id":3}']);
    expect(await run([4, 5, 6])).toEqual(['UPSTREAM_SOCKET', 'UPSTREAM_SOCKET', 'UPSTREAM_SOCKET']);
    expect(reported.map((e) => (e as Error).message)).toEqual(['caller 1', 'caller 3', 'caller 5']);
  });

  it('a pipelined connection that fails counts as one failure of its upstream, not one per call', async () => {
    // A resets its first connection once it has read three calls; B answers.
    const a = await upstream((_req, s, n) => {
      if (n === 2) s.destroy();
      else if (n > 2) s.write(ok('{"from":"a"}'));
    });
    const b = await upstream((req, s) => s.write(ok(bodyOf(req))));
    closers.push(a.close, b.close);
    const localnet = loadChains({}).find((c) => c.id === 'localnet')!;
    const [urlA, urlB] = [a.port, b.port].map((p) => `http://127.0.0.1:${p}/`);
    const set = new UpstreamSet([withUpstreams(localnet, { full: [urlA!, urlB!] })], {
      timeoutMs: 2000,
      maxLagBlocks: 10,
      connectionsPerUpstream: 4,
      pipelineDepth: 8,
    });
    closers.push(() => set.close());
    const group = set.chains.get('localnet')!.full;
    const send = (i: number) =>
      new Promise<string | undefined>((resolve) =>
        set.sendTo(group, `{"id":${i}}`, true, (r) => resolve(r?.body.toString())),
      );
    // Every call tries A first (B is behind in the order only when A is out).
    group.order = () => group.members;
    expect(await Promise.all([1, 2, 3].map(send))).toEqual(ids(1, 3).map((i) => `{"id":${i}}`));
    const memberA = group.members[0]!;
    expect(memberA.failures).toBe(1);
    expect(memberA.healthy).toBe(true);
  });

  it('close() fails queued quick posts and lets the written ones finish', async () => {
    const { client, quick } = await setup(
      async (req, s) => {
        await sleep(40);
        s.write(ok(bodyOf(req)));
      },
      { pipelineDepth: 2, connections: 1 },
    );
    const answers = quick(ids(1, 4));
    await sleep(5);
    await client.close();
    expect(bodies(await answers)).toEqual([
      '{"id":1}',
      '{"id":2}',
      'UPSTREAM_CLOSED',
      'UPSTREAM_CLOSED',
    ]);
  });
});
