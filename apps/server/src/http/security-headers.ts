/**
 * Security headers on every console response (the web app, /api, health). Written out by hand rather than through
 * @fastify/helmet: they are a handful of fixed strings, and the two that vary (HSTS only over TLS, the notice
 * socket's ws:/wss: origin) would need per-request code around helmet anyway.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** One year, the usual preload-list minimum; sent only over TLS (a plain-HTTP answer is ignored by browsers anyway). */
const HSTS = 'max-age=31536000; includeSubDomains';

/** Browser features the console never uses, so injected script cannot reach them either. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/**
 * The Content-Security-Policy of the console. The built app (apps/web/dist) loads only same-origin files and has no
 * inline script, so scripts are 'self' alone: no 'unsafe-inline', no 'unsafe-eval' (in a browser the contract turns
 * zod's eval probe off, packages/contract/src/zod-config.ts).
 *
 * style-src keeps 'unsafe-inline' on purpose: Ant Design (CSS-in-JS) and its icons insert <style> elements at run
 * time, and ECharts and antd set style attributes. A nonce would make index.html a per-request template and every
 * style inserter would have to carry it (one missed and the page breaks, since a nonce disables 'unsafe-inline');
 * injected CSS cannot run script, and script — the real danger — stays locked to 'self'.
 *
 * connect-src: /api is same-origin; the notice WebSocket is on the same host, which 'self' covers in current browsers
 * (CSP3); the ws:/wss: origin of PUBLIC_URL is named too for browsers that read 'self' as http(s) only.
 * img-src allows data: and blob: for avatars previewed before upload and chart images.
 */
export function contentSecurityPolicy(o: {
  publicUrl: string;
  isTls: boolean;
  isStripe?: boolean;
}): string {
  // Card payments load Stripe.js, which talks to api.stripe.com and frames its card fields (Stripe's CSP guide).
  const stripe = o.isStripe
    ? {
        script: ' https://js.stripe.com',
        connect: ' https://api.stripe.com',
        frame: ' https://js.stripe.com https://hooks.stripe.com',
      }
    : { script: '', connect: '', frame: '' };
  const directives = [
    "default-src 'self'",
    `script-src 'self'${stripe.script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${socketOrigin(o.publicUrl)}${stripe.connect}`,
    ...(o.isStripe ? [`frame-src${stripe.frame}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Over TLS an http: sub-resource would be mixed content; upgrade instead of breaking (never on plain HTTP,
    // where it would send the browser to an https: port nobody listens on).
    ...(o.isTls ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

function socketOrigin(publicUrl: string): string {
  try {
    const url = new URL(publicUrl);
    return ` ${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  } catch {
    return '';
  }
}

/** True when the request came over TLS: the socket itself, or X-Forwarded-Proto https when TRUST_PROXY is set. */
function isTls(request: FastifyRequest): boolean {
  // Fastify reads X-Forwarded-Proto only when trustProxy is on, so a client cannot claim TLS on its own.
  return request.protocol === 'https';
}

export function registerSecurityHeaders(
  app: FastifyInstance,
  o: { publicUrl: () => string; isStripe?: boolean },
): void {
  // Built once per (public URL, TLS) pair: the URL only changes once, when a server on port 0 learns its port.
  const cache = new Map<string, string>();
  const cspFor = (publicUrl: string, tls: boolean): string => {
    const key = `${tls ? 's' : 'p'}${publicUrl}`;
    let csp = cache.get(key);
    if (csp === undefined) {
      csp = contentSecurityPolicy({ publicUrl, isTls: tls, isStripe: o.isStripe ?? false });
      cache.set(key, csp);
    }
    return csp;
  };

  // onRequest, so every answer carries them: files, the SPA fallback, /api envelopes, 404s and errors.
  app.addHook('onRequest', async (request, reply) => {
    const tls = isTls(request);
    reply.headers({
      'content-security-policy': cspFor(o.publicUrl(), tls),
      // For browsers without CSP frame-ancestors; both say "never framed" (clickjacking).
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      // Links in mails carry one-time codes in the URL; no page of ours should hand its URL to another site.
      'referrer-policy': 'no-referrer',
      'permissions-policy': PERMISSIONS_POLICY,
      ...(tls ? { 'strict-transport-security': HSTS } : {}),
    });
  });
}
