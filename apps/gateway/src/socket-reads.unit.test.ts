import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptSocket, copyingReads } from './socket-reads';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server whose connections are adopted (as the raw front does); `onSocket` gets each with its chunks so far. */
async function adoptingServer(
  onSocket: (socket: net.Socket, chunks: Buffer[]) => void,
): Promise<{ server: net.Server; port: number }> {
  const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (accepted) => {
    const chunks: Buffer[] = [];
    const socket = adoptSocket(
      accepted,
      copyingReads((c) => {
        chunks.push(c);
      }),
    );
    onSocket(socket, chunks);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as net.AddressInfo).port };
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('reads into one reused buffer', () => {
  it('hands on copies: chunks of many connections, kept across later reads, keep their own bytes', async () => {
    const got = new Map<number, Buffer[]>();
    let n = 0;
    const { port } = await adoptingServer((socket, chunks) => {
      const id = n++;
      got.set(id, chunks);
      socket.on('error', () => {});
      socket.on('end', () => socket.end()); // the server allows half-open sockets: its side ends here
    });
    const clients = await Promise.all([0, 1, 2, 3].map(() => connect(port)));
    // Interleaved writes: every read lands in the same buffer, so a chunk that were a view would change under us.
    for (let round = 0; round < 20; round++)
      for (const [i, c] of clients.entries()) c.write(`${String(i).repeat(50)}-${round};`);
    const expected = (i: number) =>
      Array.from({ length: 20 }, (_, r) => `${String(i).repeat(50)}-${r};`).join('');
    await until(() => [...got.values()].every((chunks) => Buffer.concat(chunks).length >= 1060));
    const texts = [...got.values()].map((chunks) => Buffer.concat(chunks).toString()).sort();
    expect(texts).toEqual([0, 1, 2, 3].map(expected));
    for (const c of clients) c.destroy();
  });

  it('keeps the server open until an adopted connection closes, as it did for the accepted socket', async () => {
    let adopted: net.Socket | undefined;
    const { server, port } = await adoptingServer((socket) => {
      adopted = socket;
      socket.on('error', () => {});
      socket.on('end', () => socket.end());
    });
    const client = await connect(port);
    await until(() => adopted !== undefined);
    expect(adopted!.remoteAddress).toBe('127.0.0.1');
    let closed = false;
    server.close(() => (closed = true));
    servers.splice(servers.indexOf(server), 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    client.destroy();
    await until(() => closed);
  });

  it('answers on the adopted socket and sees the client end its side (half-open)', async () => {
    const { port } = await adoptingServer((socket, chunks) => {
      socket.on('end', () => socket.end(`got ${Buffer.concat(chunks).toString()}`));
    });
    const client = await connect(port);
    let answer = '';
    client.on('data', (d: Buffer) => (answer += d.toString()));
    const ended = new Promise((r) => client.once('end', r));
    client.end('hello');
    await ended;
    expect(answer).toBe('got hello');
  });

  it('uses a socket with no handle to take as it is, reading', () => {
    const orphan = new net.Socket();
    const reads = copyingReads(() => {});
    expect(adoptSocket(orphan, reads)).toBe(orphan);
    orphan.destroy();
  });

  it('reads an upstream answer through the option on a client socket', async () => {
    const server = net.createServer((s) => s.end('x'.repeat(10_000)));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const chunks: Buffer[] = [];
    const s = net.connect({
      port: (server.address() as net.AddressInfo).port,
      host: '127.0.0.1',
      onread: copyingReads((c) => {
        chunks.push(c);
      }),
    });
    await new Promise((r) => s.once('end', r));
    expect(Buffer.concat(chunks).toString()).toBe('x'.repeat(10_000));
    s.destroy();
  });
});
