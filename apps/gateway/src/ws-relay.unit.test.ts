// refuseUpgrade (ws-relay.ts) on real sockets: the refused connection is closed for good, at once when its answer
// is flushed, after REFUSED_UPGRADE_LINGER_MS when the client reads nothing, and nothing more is read meanwhile.
// The gateway end to end: gateway.test.ts, "a refused upgrade closes its connection for good".
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERR } from './errors';
import { adoptSocket, copyingReads } from './socket-reads';
import { REFUSED_UPGRADE_LINGER_MS, refuseUpgrade } from './ws-relay';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A half-open server (as node:http's) whose one connection is adopted as the raw front adopts them, reads counted,
 * and a client connected to it; `reads: false` pauses the client before it connects, so it never reads at all.
 */
async function pair(clientReads: boolean) {
  let read = 0;
  let accept!: (s: net.Socket) => void;
  const accepted = new Promise<net.Socket>((r) => (accept = r));
  const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (a) =>
    accept(
      adoptSocket(
        a,
        copyingReads((c) => void (read += c.length)),
      ),
    ),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = net.connect({
    port: (server.address() as net.AddressInfo).port,
    host: '127.0.0.1',
    allowHalfOpen: true,
  });
  if (!clientReads) client.pause();
  client.on('error', () => {});
  const socket = await accepted;
  // When the socket closed; Infinity if it is still open after twice the linger.
  const closed = Promise.race([
    new Promise<number>((r) => socket.once('close', () => r(Date.now()))),
    sleep(2 * REFUSED_UPGRADE_LINGER_MS).then(() => Infinity),
  ]);
  cleanups.push(() => {
    client.destroy();
    socket.destroy();
    server.close();
  });
  return { socket, client, closed, bytesRead: () => read };
}

describe('refuseUpgrade', () => {
  it('destroys the socket once its answer is flushed, though the client keeps its side open', async () => {
    const { socket, client, closed } = await pair(true);
    let answer = '';
    client.on('data', (d: Buffer) => (answer += d.toString()));
    const ended = new Promise((r) => client.once('end', r));
    const at = Date.now();
    refuseUpgrade(socket, ERR.rateLimited('too many open WebSockets for this key (limit 1)', 1));
    expect(await closed).toBeLessThan(at + REFUSED_UPGRADE_LINGER_MS / 2);
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(answer).toContain('\r\nRetry-After: 1\r\n');
    expect(answer).toContain('"code":-32005');
  });

  it.each([
    ['a paused socket', true],
    ['a reading socket', false],
  ])(
    'destroys %s whose client reads nothing after the linger, reading nothing meanwhile',
    async (_, paused) => {
      const { socket, client, closed, bytesRead } = await pair(false);
      socket.on('error', () => {});
      if (paused) socket.pause();
      // Fill the kernel's buffers both ways until a write stays unflushed: the answer cannot be flushed either.
      const chunk = Buffer.alloc(256 * 1024, 97);
      for (let i = 0; i < 256; i++) {
        if (socket.write(chunk)) continue;
        const drained = await Promise.race([
          new Promise((r) => socket.once('drain', () => r(true))),
          sleep(100).then(() => false),
        ]);
        if (!drained) break;
      }
      expect(socket.writableLength).toBeGreaterThan(0);
      let finished = false;
      socket.once('finish', () => (finished = true));
      const at = Date.now();
      refuseUpgrade(socket, ERR.notFound());
      // The client goes on sending: none of it is read while the answer waits.
      const before = bytesRead();
      const sending = setInterval(() => client.write(Buffer.alloc(16 * 1024, 98)), 20);
      cleanups.push(() => clearInterval(sending));
      await sleep(REFUSED_UPGRADE_LINGER_MS / 2);
      expect(socket.destroyed).toBe(false);
      expect(bytesRead()).toBe(before);
      const closedAt = await closed;
      expect(closedAt - at).toBeGreaterThanOrEqual(REFUSED_UPGRADE_LINGER_MS - 5);
      expect(closedAt - at).toBeLessThan(REFUSED_UPGRADE_LINGER_MS + 1000);
      expect(finished).toBe(false);
      expect(bytesRead()).toBe(before);
    },
  );

  it('leaves an already destroyed socket alone', () => {
    const s = new net.Socket();
    s.destroy();
    expect(() => refuseUpgrade(s, ERR.notFound())).not.toThrow();
  });
});
