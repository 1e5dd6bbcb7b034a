/** Ports and reachability for tests that start real servers (a Hardhat node, gateways) or need Redis. */
import net from 'node:net';

/** A port free right now on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections at `url`'s host and port (e.g. redis://127.0.0.1:6379). */
export function isReachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || defaultPort), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
