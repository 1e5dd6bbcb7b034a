import { describe, expect, it } from 'vitest';
import type { TUpstream } from './upstreams';
import { UpstreamGroup } from './upstreams';
import { isErrorBody, parsePath } from './context';

const member = (url: string, head: number, healthy = true) =>
  ({ url, head, healthy, failures: 0 }) as unknown as TUpstream;

describe('upstream order (health and block-height lag)', () => {
  it('round-robins over in-sync healthy members', () => {
    const g = new UpstreamGroup('full', [member('a', 100), member('b', 100), member('c', 95)]);
    const firsts = [0, 1, 2, 3].map(() => g.order(10)[0]?.url);
    expect(firsts).toEqual(['a', 'b', 'c', 'a']);
  });

  it('puts a member lagging more than maxLag blocks, or unhealthy, behind the good ones', () => {
    const g = new UpstreamGroup('full', [
      member('lagging', 80),
      member('down', 100, false),
      member('good', 100),
    ]);
    for (let i = 0; i < 3; i++) {
      const order = g.order(10).map((m) => m.url);
      expect(order[0]).toBe('good');
      expect(order).toHaveLength(3); // the rest stay as a last resort
    }
  });
});

describe('hot-path parsing', () => {
  it.each([
    ['/v1/localnet/abc', { chain: 'localnet', apiKey: 'abc', dedicated: false }],
    ['/v1/localnet/abc/', { chain: 'localnet', apiKey: 'abc', dedicated: false }],
    ['/v1/localnet/abc?x=1', { chain: 'localnet', apiKey: 'abc', dedicated: false }],
    ['/dn/1b4e-node/abc', { chain: '1b4e-node', apiKey: 'abc', dedicated: true }],
    ['/dn/1b4e-node/abc?x=1', { chain: '1b4e-node', apiKey: 'abc', dedicated: true }],
    ['/dn/1b4e-node', undefined],
    ['/dn//abc', undefined],
    ['/dn/node/abc/def', undefined],
    ['/v1/localnet', undefined],
    ['/v1//abc', undefined],
    ['/v1/localnet/abc/def', undefined],
    ['/v2/localnet/abc', undefined],
  ])('parsePath(%s)', (url, expected) => {
    expect(parsePath(url)).toEqual(expected);
  });

  it.each([
    ['{"jsonrpc":"2.0","id":1,"result":"0x1"}', false],
    ['{"jsonrpc":"2.0","id":1,"result":{"error":"a field called error"}}', false],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}', true],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":3,"data":{"result":"nested"}}}', true],
    ['not json', true],
    ['{"error":{"code":1},"result":"0x1"}', true],
    ['"result":"0x1"', false],
    ['"result":1,"error":2', false],
    ['"error""result"', true],
  ])('isErrorBody(%s) = %s', (body, expected) => {
    expect(isErrorBody(Buffer.from(body))).toBe(expected);
  });
});
