import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxyOption } from './trust-proxy';

const apps = [0, 1, 2].map((hops) => {
  const app = Fastify({ trustProxy: trustProxyOption(hops) });
  app.get('/who', async (req) => ({ ip: req.ip, protocol: req.protocol }));
  return app;
});
beforeAll(() => Promise.all(apps.map((a) => a.ready())));
afterAll(() => Promise.all(apps.map((a) => a.close())));

async function who(hops: number, headers: Record<string, string>) {
  const res = await apps[hops]!.inject({
    method: 'GET',
    url: '/who',
    headers,
    remoteAddress: '10.0.0.1',
  });
  return res.json() as { ip: string; protocol: string };
}

describe('trustProxyOption (TRUST_PROXY)', () => {
  it('off: the socket address, and a client cannot claim TLS', async () => {
    expect(trustProxyOption(0)).toBe(false);
    expect(
      await who(0, { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' }),
    ).toEqual({
      ip: '10.0.0.1',
      protocol: 'http',
    });
  });
  it('one proxy: the address it appended, not the one the client wrote first', async () => {
    expect((await who(1, { 'x-forwarded-for': '203.0.113.5' })).ip).toBe('203.0.113.5');
    expect((await who(1, { 'x-forwarded-for': '6.6.6.6, 203.0.113.5' })).ip).toBe('203.0.113.5');
    expect((await who(1, { 'x-forwarded-proto': 'https' })).protocol).toBe('https');
    expect((await who(1, {})).ip).toBe('10.0.0.1');
  });
  it('two proxies: the entry the outer one appended', async () => {
    expect((await who(2, { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.2' })).ip).toBe(
      '203.0.113.5',
    );
  });
});
