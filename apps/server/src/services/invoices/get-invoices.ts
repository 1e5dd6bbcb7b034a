/** hub_getUserInvoice: the acting account's invoices, paged (SPEC §9), by payment channel. */
import type { TParams, TResult } from '@rpc/contract';
import { invoices, type TExecutor } from '@rpc/db';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { toInvoiceSummary } from './to-invoice';

export async function getInvoices(
  db: TExecutor,
  o: { accountId: string; params: TParams<'hub_getUserInvoice'> },
): Promise<TResult<'hub_getUserInvoice'>> {
  const p = o.params;
  const where = and(
    eq(invoices.accountId, o.accountId),
    p.channel === 'all' ? undefined : eq(invoices.channel, p.channel),
  );
  const order = p.sort === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(order(invoices.issuedAt), order(invoices.year), order(invoices.seq))
      .limit(p.perPage)
      .offset((p.page - 1) * p.perPage),
    db.select({ n: count() }).from(invoices).where(where),
  ]);
  return {
    list: rows.map(toInvoiceSummary),
    total: total?.n ?? 0,
    page: p.page,
    perPage: p.perPage,
  };
}
