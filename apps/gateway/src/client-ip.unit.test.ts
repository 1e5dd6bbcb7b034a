import { describe, expect, it } from 'vitest';
import { type TGatewayContext, clientIpOf } from './context';

const ctx = (trustProxy: number) => ({ trustProxy }) as TGatewayContext;

describe('clientIpOf', () => {
  it('uses the socket address without trustProxy, whatever the header says', () => {
    expect(clientIpOf(ctx(0), '203.0.113.5', '127.0.0.1')).toBe('127.0.0.1');
    expect(clientIpOf(ctx(0), undefined, undefined)).toBe('');
  });
  it('takes the entry trustProxy places from the right (what our outermost proxy appended)', () => {
    expect(clientIpOf(ctx(1), '203.0.113.5', '10.0.0.1')).toBe('203.0.113.5');
    expect(clientIpOf(ctx(1), 'spoofed, 203.0.113.5', '10.0.0.1')).toBe('203.0.113.5');
    expect(clientIpOf(ctx(1), ' a , b ,203.0.113.5 ', '10.0.0.1')).toBe('203.0.113.5');
    expect(clientIpOf(ctx(2), 'spoofed, 203.0.113.5, 10.0.0.2', '10.0.0.1')).toBe('203.0.113.5');
    // Fewer entries than proxies: the left-most is as far as the header goes.
    expect(clientIpOf(ctx(3), '203.0.113.5, 10.0.0.2', '10.0.0.1')).toBe('203.0.113.5');
  });
  it('falls back to the socket address when the header is missing, empty or its entry is blank', () => {
    expect(clientIpOf(ctx(1), undefined, '10.0.0.1')).toBe('10.0.0.1');
    expect(clientIpOf(ctx(1), '', '10.0.0.1')).toBe('10.0.0.1');
    expect(clientIpOf(ctx(1), '203.0.113.5, ', '10.0.0.1')).toBe('10.0.0.1');
    // Repeated headers (node:http joins them; an array is never trusted).
    expect(clientIpOf(ctx(1), ['a', 'b'], '10.0.0.1')).toBe('10.0.0.1');
  });
});
