/**
 * POST /webhooks/stripe: Stripe's events, read as the exact bytes Stripe signed (the signature covers the raw body),
 * verified and applied once (services/cards/stripe-webhook.ts). 400 for a bad or missing signature, 413 for a body
 * no Stripe event reaches, 404 when card payments are not configured; a failure while applying answers 500 so
 * Stripe sends the event again.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TDeps } from '../rpc/context';
import { handleStripeWebhook } from '../services/cards/stripe-webhook';
import { BODY_TOO_LARGE, readLimitedBody } from './read-body';

export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';
const WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

export async function registerStripeWebhookRoute(app: FastifyInstance, deps: TDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) =>
      readLimitedBody(payload, request.headers['content-length'], {
        limit: WEBHOOK_BODY_LIMIT_BYTES,
        drainLimit: WEBHOOK_BODY_LIMIT_BYTES * 2,
      }),
    );
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      if (request.body === BODY_TOO_LARGE)
        return reply.code(413).send({ received: false, outcome: 'too_large' });
      const body = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      const answer = await handleStripeWebhook(
        deps,
        body,
        typeof signature === 'string' ? signature : undefined,
      );
      return reply.code(answer.status).send(answer.body);
    });
  });
}
