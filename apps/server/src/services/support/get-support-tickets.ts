/** The acting account's tickets, newest first, SPEC §9 paging. */
import { formatTicketNumber, type TResult, type TTicketCategory } from '@rpc/contract';
import { supportTickets, type TDatabase } from '@rpc/db';
import { count, desc, eq } from 'drizzle-orm';
import type { TSupportCaller } from './support-error';

export async function getSupportTickets(o: {
  deps: { db: TDatabase };
  caller: TSupportCaller;
  params: { page: number; perPage: number };
}): Promise<TResult<'hub_getSupportTickets'>> {
  const { db } = o.deps;
  const where = eq(supportTickets.accountId, o.caller.account.id);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: supportTickets.id,
        number: supportTickets.number,
        category: supportTickets.category,
        subject: supportTickets.subject,
        status: supportTickets.status,
        createdAt: supportTickets.createdAt,
        attachmentName: supportTickets.attachmentName,
      })
      .from(supportTickets)
      .where(where)
      .orderBy(desc(supportTickets.createdAt), desc(supportTickets.number))
      .limit(o.params.perPage)
      .offset((o.params.page - 1) * o.params.perPage),
    db.select({ n: count() }).from(supportTickets).where(where),
  ]);
  return {
    list: rows.map((r) => ({
      ticketId: r.id,
      number: formatTicketNumber(r.number),
      category: r.category as TTicketCategory,
      subject: r.subject,
      status: r.status,
      createdAt: r.createdAt.getTime(),
      hasAttachment: r.attachmentName !== null,
    })),
    total: total?.n ?? 0,
    page: o.params.page,
    perPage: o.params.perPage,
  };
}
