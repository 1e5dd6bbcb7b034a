/** Bench upstream: the fastest honest JSON-RPC responder we can write with node:http, so the gateway's cost shows. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const call = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":"0x12a05f2"}`;
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
