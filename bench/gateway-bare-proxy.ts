/** Bench baseline: the barest Node proxy (node:http in, undici Pool out, bytes passed through, no checks). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream) throw new Error('BENCH_UPSTREAM is required');
const pool = new Pool(upstream, { connections: 128 });
const headers = { 'content-type': 'application/json' };

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
const target = new URL(upstream);
const useNodeHttp = process.env.BENCH_BARE_CLIENT === 'http';

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (useNodeHttp) {
      const body = Buffer.concat(chunks);
      const up = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: '/',
          method: 'POST',
          headers: { ...headers, 'content-length': body.length },
        },
        (ur) => {
          const out: Buffer[] = [];
          ur.on('data', (c: Buffer) => out.push(c));
          ur.on('end', () => {
            const b = Buffer.concat(out);
            res
              .writeHead(ur.statusCode ?? 502, {
                'content-type': 'application/json',
                'content-length': b.length,
              })
              .end(b);
          });
        },
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(body);
      return;
    }
    const out: Buffer[] = [];
    let status = 0;
    pool.dispatch(
      { path: '/', method: 'POST', headers, body: Buffer.concat(chunks) },
      {
        onRequestStart() {},
        onResponseStart(_c, s) {
          status = s;
        },
        onResponseData(_c, chunk) {
          out.push(chunk);
        },
        onResponseEnd() {
          const body = Buffer.concat(out);
          res
            .writeHead(status, {
              'content-type': 'application/json',
              'content-length': body.length,
            })
            .end(body);
        },
        onResponseError() {
          res.writeHead(502).end();
        },
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
