/**
 * A local stand-in for the few Stripe endpoints the console uses, so card tests run offline with the official SDK
 * pointed at it (STRIPE_API_BASE). It keeps customers, cards (PaymentMethods), SetupIntents and PaymentIntents in
 * memory, replays the first answer to an Idempotency-Key (not checking that a reuse sends the same parameters, and
 * its `failNext` outages are never stored: they stand for requests that did not reach Stripe), and sends signed
 * webhook events (signed with the SDK's own test-header helper) to the console, or queues them for the test to
 * deliver, duplicate, tamper with or reorder.
 *
 * Test cards (as Stripe's): 4242424242424242 visa; 4000056655665556 visa debit; 5555555555554444 mastercard;
 * 5200828282828210 mastercard debit; 378282246310005 amex; 4000000000000002 declined when saved;
 * 4000000000000341 saved, declined when charged; 4000000000009995 insufficient funds when charged;
 * 4000002500003155 asks for authentication (3-D Secure) when charged on-session, fails off-session.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

type TObj = Record<string, unknown>;
export type TFakeEvent = { id: string; type: string; payload: string };

const CARDS: Record<string, { brand: string; funding: string }> = {
  '4242424242424242': { brand: 'visa', funding: 'credit' },
  '4000056655665556': { brand: 'visa', funding: 'debit' },
  '5555555555554444': { brand: 'mastercard', funding: 'credit' },
  '5200828282828210': { brand: 'mastercard', funding: 'debit' },
  '378282246310005': { brand: 'amex', funding: 'credit' },
  '4000000000000002': { brand: 'visa', funding: 'credit' },
  '4000000000000341': { brand: 'visa', funding: 'credit' },
  '4000000000009995': { brand: 'visa', funding: 'credit' },
  '4000002500003155': { brand: 'visa', funding: 'credit' },
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding (a[b][0]=x) back into objects. */
export function parseStripeForm(body: string): TObj {
  const out: TObj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: TObj = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as TObj;
    });
  }
  return out;
}

export type TFakeStripe = {
  url: string;
  port: number;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** where events go; null: queued in `pending` until deliver() */
  webhookUrl: string | null;
  events: TFakeEvent[];
  pending: TFakeEvent[];
  paymentIntents: Map<string, TObj>;
  /** Saves a card for a customer as a browser would (SetupIntent confirmed). Answers the PaymentMethod id. */
  saveCard: (customerId: string, number: string, exp?: { month: number; year: number }) => string;
  /**
   * What Stripe.js does in the browser: confirms a SetupIntent the console made with a card (number, expiry
   * 12/2031) and the publishable key it handed out (default: this fake's). Answers Stripe's status and body.
   */
  confirmSetup: (
    setup: { setupIntentId: string; clientSecret: string; publishableKey?: string },
    number?: string,
  ) => Promise<{ status: number; body: Record<string, unknown> }>;
  /** Makes the next n API calls (under `pathPrefix`, if given) answer 500 (a Stripe outage). */
  failNext: (n: number, pathPrefix?: string) => void;
  /** Sends queued events (all, or the given ones) to the webhook URL; answers the HTTP statuses. */
  deliver: (events?: TFakeEvent[], url?: string) => Promise<number[]>;
  /** Signs a payload as Stripe would (for tampering tests). */
  sign: (payload: string, timestamp?: number) => string;
  close: () => Promise<void>;
};

export async function startFakeStripe(
  o: { port?: number; webhookUrl?: string | null; webhookSecret?: string } = {},
): Promise<TFakeStripe> {
  const customers = new Map<string, TObj>();
  const methods = new Map<string, TObj>();
  const setups = new Map<string, TObj>();
  const intents = new Map<string, TObj>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let failures = 0;
  let failPrefix = '';
  const webhookSecret = o.webhookSecret ?? 'whsec_fake_secret';
  const signer = new Stripe('sk_test_signer');

  const fake: TFakeStripe = {
    url: '',
    port: 0,
    secretKey: 'sk_test_fake',
    publishableKey: 'pk_test_fake',
    webhookSecret,
    webhookUrl: o.webhookUrl ?? null,
    events: [],
    pending: [],
    paymentIntents: intents,
    saveCard: (customerId, number, exp) => {
      const pm = createCard(number, exp);
      pm.customer = customerId;
      return pm.id as string;
    },
    confirmSetup: async (setup, number = '4242424242424242') => {
      const res = await fetch(`${fake.url}/v1/setup_intents/${setup.setupIntentId}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': number,
          'payment_method_data[card][exp_month]': '12',
          'payment_method_data[card][exp_year]': '2031',
          client_secret: setup.clientSecret,
          key: setup.publishableKey ?? fake.publishableKey,
        }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    failNext: (n, pathPrefix = '') => {
      failures = n;
      failPrefix = pathPrefix;
    },
    deliver: async (events, url) => {
      const list = events ?? fake.pending.splice(0);
      const statuses: number[] = [];
      for (const e of list) statuses.push(await post(url ?? fake.webhookUrl!, e.payload));
      return statuses;
    },
    sign: (payload, timestamp) =>
      signer.webhooks.generateTestHeaderString({
        payload,
        secret: webhookSecret,
        ...(timestamp ? { timestamp } : {}),
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function post(url: string, payload: string): Promise<number> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': fake.sign(payload) },
      body: payload,
    });
    await res.text();
    return res.status;
  }

  function emit(type: string, object: TObj): void {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object: structuredClone(object) },
    };
    const e = { id: event.id, type, payload: JSON.stringify(event) };
    fake.events.push(e);
    if (fake.webhookUrl) {
      const url = fake.webhookUrl;
      setImmediate(() => void post(url, e.payload).catch(() => undefined));
    } else fake.pending.push(e);
  }

  function createCard(number: string, exp?: { month: number; year: number }): TObj {
    const info = CARDS[number] ?? { brand: 'visa', funding: 'credit' };
    const pm: TObj = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      card: {
        brand: info.brand,
        funding: info.funding,
        last4: number.slice(-4),
        exp_month: exp?.month ?? 12,
        exp_year: exp?.year ?? new Date().getUTCFullYear() + 3,
        number_for_tests: number,
      },
      metadata: {},
    };
    methods.set(pm.id as string, pm);
    return pm;
  }

  const cardNumber = (pm: TObj) => (pm.card as TObj).number_for_tests as string;
  const publicPm = (pm: TObj) => {
    const { number_for_tests: _n, ...card } = pm.card as TObj;
    return { ...pm, card };
  };
  const cardError = (code: string, message: string, extra: TObj = {}) => ({
    status: 402,
    body: { error: { type: 'card_error', code, message, ...extra } },
  });
  const notFound = (what: string) => ({
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${what}`,
      },
    },
  });

  /** Charges a PaymentIntent's card as Stripe would; answers the API answer. */
  function confirmIntent(pi: TObj, onSession: boolean): { status: number; body: unknown } {
    const pm = methods.get(pi.payment_method as string);
    if (!pm) return notFound('payment_method');
    const number = cardNumber(pm);
    const decline = (code: string, declineCode: string | null) => {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', code, decline_code: declineCode };
      emit('payment_intent.payment_failed', pi);
      return cardError(code, 'Your card was declined.', {
        decline_code: declineCode,
        payment_intent: pi,
      });
    };
    if (number === '4000000000000341' || number === '4000000000000002')
      return decline('card_declined', 'generic_decline');
    if (number === '4000000000009995') return decline('card_declined', 'insufficient_funds');
    if (number === '4000002500003155' && pi.status !== 'requires_action') {
      if (!onSession) return decline('authentication_required', 'authentication_required');
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk' };
      emit('payment_intent.requires_action', pi);
      return { status: 200, body: pi };
    }
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    pi.next_action = null;
    emit('payment_intent.succeeded', pi);
    return { status: 200, body: pi };
  }

  function route(
    method: string,
    path: string,
    q: TObj,
    b: TObj,
  ): { status: number; body: unknown } {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const c = {
        id: id('cus'),
        object: 'customer',
        invoice_settings: { default_payment_method: null },
        metadata: b.metadata ?? {},
      };
      customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if ((m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      const c = customers.get(m[1]!);
      if (!c) return notFound('customer');
      if (method === 'POST') {
        const dpm = (b.invoice_settings as TObj | undefined)?.default_payment_method;
        if (dpm !== undefined) {
          const pm = methods.get(dpm as string);
          if (dpm && (!pm || pm.customer !== c.id)) return notFound('payment_method');
          c.invoice_settings = { default_payment_method: dpm || null };
        }
      }
      return { status: 200, body: c };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      if (!customers.has(b.customer as string)) return notFound('customer');
      const si = {
        id: id('seti'),
        object: 'setup_intent',
        status: 'requires_payment_method',
        customer: b.customer,
        usage: b.usage ?? 'off_session',
        payment_method: null,
        metadata: b.metadata ?? {},
        client_secret: '',
      };
      si.client_secret = `${si.id}_secret_${randomBytes(8).toString('hex')}`;
      setups.set(si.id, si);
      return { status: 200, body: si };
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)(\/confirm)?$/))) {
      const si = setups.get(m[1]!);
      if (!si) return notFound('setup_intent');
      if (method === 'POST' && m[2]) {
        if (b.client_secret !== si.client_secret) return notFound('setup_intent');
        const card = ((b.payment_method_data as TObj | undefined)?.card ?? {}) as TObj;
        const number = String(card.number ?? '').replace(/\s/g, '');
        if (!/^\d{15,16}$/.test(number))
          return cardError('incorrect_number', 'Your card number is incorrect.');
        if (number === '4000000000000002') {
          si.last_setup_error = { code: 'card_declined', decline_code: 'generic_decline' };
          return cardError('card_declined', 'Your card was declined.', {
            decline_code: 'generic_decline',
            setup_intent: si,
          });
        }
        const pm = createCard(number, {
          month: Number(card.exp_month ?? 12),
          year: Number(card.exp_year ?? new Date().getUTCFullYear() + 3),
        });
        pm.customer = si.customer;
        si.payment_method = pm.id;
        si.status = 'succeeded';
        emit('setup_intent.succeeded', si);
      }
      return { status: 200, body: si };
    }
    if (method === 'GET' && path === '/v1/payment_methods') {
      const data = [...methods.values()]
        .filter((pm) => pm.customer === q.customer)
        .reverse()
        .map(publicPm);
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)(\/detach)?$/))) {
      const pm = methods.get(m[1]!);
      if (!pm) return notFound('payment_method');
      if (method === 'POST' && m[2]) {
        for (const c of customers.values()) {
          const s = c.invoice_settings as TObj;
          if (s.default_payment_method === pm.id) s.default_payment_method = null;
        }
        pm.customer = null;
      }
      return { status: 200, body: publicPm(pm) };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const pm = methods.get(b.payment_method as string);
      if (!pm || pm.customer !== b.customer) return notFound('payment_method');
      const amount = Number(b.amount);
      if (!Number.isInteger(amount) || amount < 50)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_small',
              message: 'Amount must be at least 50 cents',
            },
          },
        };
      const pi: TObj = {
        id: id('pi'),
        object: 'payment_intent',
        amount,
        amount_received: 0,
        created: Math.floor(Date.now() / 1000),
        currency: b.currency,
        customer: b.customer,
        payment_method: pm.id,
        status: 'requires_confirmation',
        metadata: b.metadata ?? {},
        description: b.description ?? null,
        last_payment_error: null,
        next_action: null,
        client_secret: '',
      };
      pi.client_secret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
      intents.set(pi.id as string, pi);
      if (b.confirm === 'true') return confirmIntent(pi, b.off_session !== 'true');
      return { status: 200, body: pi };
    }
    if (method === 'GET' && path === '/v1/payment_intents') {
      // Newest first, by customer and creation time, as Stripe lists them (one page: has_more is always false).
      const gte = Number((q.created as TObj | undefined)?.gte ?? 0);
      const data = [...intents.values()]
        .filter((pi) => (!q.customer || pi.customer === q.customer) && Number(pi.created) >= gte)
        .reverse();
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/)) && method === 'POST') {
      const pi = intents.get(m[1]!);
      if (!pi) return notFound('payment_intent');
      if (['succeeded', 'canceled', 'processing'].includes(pi.status as string))
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${String(pi.status)}.`,
            },
          },
        };
      pi.status = 'canceled';
      pi.cancellation_reason = b.cancellation_reason ?? null;
      pi.next_action = null;
      emit('payment_intent.canceled', pi);
      return { status: 200, body: pi };
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)(\/confirm)?$/))) {
      const pi = intents.get(m[1]!);
      if (!pi) return notFound('payment_intent');
      if (method === 'POST' && m[2]) {
        // From the browser (Stripe.js with the publishable key): the buyer passed 3-D Secure.
        if (b.client_secret !== undefined && b.client_secret !== pi.client_secret)
          return notFound('payment_intent');
        if (pi.status === 'requires_action') {
          pi.status = 'succeeded';
          pi.amount_received = pi.amount;
          pi.next_action = null;
          emit('payment_intent.succeeded', pi);
        } else if (pi.status !== 'succeeded') return confirmIntent(pi, true);
      }
      return { status: 200, body: pi };
    }
    return notFound(`route ${method} ${path}`);
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          'access-control-allow-headers': '*',
          'request-id': id('req'),
        });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'OPTIONS') return send(204, {});
      if (url.pathname === '/health') return send(200, { ok: true });
      const auth = req.headers.authorization ?? '';
      const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
      const isBrowser = typeof body.key === 'string' && body.key === fake.publishableKey;
      if (auth !== `Bearer ${fake.secretKey}` && !isBrowser)
        return send(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      if (failures > 0 && url.pathname.startsWith(failPrefix)) {
        failures -= 1;
        return send(500, {
          error: { type: 'api_error', message: 'Something went wrong on our end' },
        });
      }
      const key = req.headers['idempotency-key'];
      const cacheKey = typeof key === 'string' ? `${req.method}:${url.pathname}:${key}` : null;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      if (cached) return send(cached.status, cached.body);
      const query = parseStripeForm(url.searchParams.toString());
      const answer = route(req.method ?? 'GET', url.pathname, query, body);
      if (cacheKey && answer.status < 500) idempotent.set(cacheKey, answer);
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', () => resolve()));
  const address = server.address();
  fake.port = typeof address === 'object' && address ? address.port : 0;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
