/**
 * The Stripe customer of an account (personal or team): created on first use, once, even when two requests race
 * (Stripe's idempotency key per account makes both get the same customer; the row insert is do-nothing on conflict).
 */
import { stripeCustomers } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { callStripe, requireStripe, type TCardDeps } from './card-deps';

export async function findCustomerId(deps: TCardDeps, accountId: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ customerId: stripeCustomers.customerId })
    .from(stripeCustomers)
    .where(eq(stripeCustomers.accountId, accountId));
  return row?.customerId ?? null;
}

export async function ensureCustomerId(deps: TCardDeps, accountId: string): Promise<string> {
  const known = await findCustomerId(deps, accountId);
  if (known) return known;
  const stripe = requireStripe(deps);
  const customer = await callStripe(deps, 'customers.create', () =>
    stripe.client.customers.create(
      { metadata: { accountId } },
      { idempotencyKey: `customer:${accountId}` },
    ),
  );
  await deps.db
    .insert(stripeCustomers)
    .values({ accountId, customerId: customer.id })
    .onConflictDoNothing();
  return (await findCustomerId(deps, accountId))!;
}
