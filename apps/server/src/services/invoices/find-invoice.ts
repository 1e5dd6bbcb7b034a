/** One invoice: of the acting account by id, or of anyone by a live public code. Nothing else is ever answered. */
import { invoices, type TExecutor, type TInvoiceRow } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { sha256Hex } from '../../lib/secrets';
import { InvoiceError } from './invoice-error';

/** The shape createOpaqueToken gives (32 random bytes, base64url). */
const CODE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The account is in the where: another account's id is the same not_found as an unknown one. */
export async function findOwnInvoice(
  db: TExecutor,
  o: { accountId: string; invoiceId: string },
): Promise<TInvoiceRow> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, o.invoiceId), eq(invoices.accountId, o.accountId)));
  if (!row) throw new InvoiceError('not_found');
  return row;
}

/** Unknown, malformed and revoked codes are one answer (link_invalid); the code is looked up by its hash only. */
export async function findInvoiceByCode(db: TExecutor, code: string): Promise<TInvoiceRow> {
  if (!CODE_SHAPE.test(code)) throw new InvoiceError('link_invalid');
  const [row] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.publicCodeHash, sha256Hex(code)));
  if (!row) throw new InvoiceError('link_invalid');
  return row;
}
