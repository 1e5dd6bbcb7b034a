/** The RPC gateway (data plane). Minimal until the gateway issue: answers health and refuses every RPC path. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type TGatewayOptions = { port: number; host?: string };
export type TGateway = { url: string; stop: () => Promise<void> };

export async function startGateway(opts: TGatewayOptions): Promise<TGateway> {
  const server = http.createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"unknown chain or key"}}');
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
