import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './security-headers';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('allows script from self only, never inline or eval, and no framing', () => {
    const csp = directives(
      contentSecurityPolicy({ publicUrl: 'http://localhost:3000', isTls: false }),
    );
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it.each([
    ['http://localhost:3000', 'ws://localhost:3000'],
    ['https://console.example.com', 'wss://console.example.com'],
    ['not a url', null],
  ])('names the notice socket origin of PUBLIC_URL %s', (publicUrl, socket) => {
    const connect = directives(contentSecurityPolicy({ publicUrl, isTls: false })).get(
      'connect-src',
    );
    expect(connect).toEqual(socket ? ["'self'", socket] : ["'self'"]);
  });

  it('upgrades insecure requests only over TLS', () => {
    const csp = directives(contentSecurityPolicy({ publicUrl: 'https://c.example', isTls: true }));
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
  });

  it('lets Stripe.js in only when card payments are configured', () => {
    const off = directives(contentSecurityPolicy({ publicUrl: 'https://c.example', isTls: true }));
    expect(off.has('frame-src')).toBe(false);
    expect([...off.values()].flat().some((v) => v.includes('stripe'))).toBe(false);
    const on = directives(
      contentSecurityPolicy({ publicUrl: 'https://c.example', isTls: true, isStripe: true }),
    );
    expect(on.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
    expect(on.get('connect-src')).toEqual(["'self'", 'wss://c.example', 'https://api.stripe.com']);
    expect(on.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
    expect([...on.values()].flat()).not.toContain("'unsafe-eval'");
  });
});
