/**
 * hub_getInvoicePreviewCode: a public link to one invoice of the acting account. The code is 32 random bytes
 * (base64url) shown once; only its SHA-256 is stored, so a new call cannot show it again and makes a new one,
 * which replaces the old (that link stops working). revoke ends the link without a new one.
 */
import { invoicePdfPath, INVOICE_PAGE_PATH, type TInvoicePublicLink } from '@rpc/contract';
import { invoices, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import { createOpaqueToken, sha256Hex } from '../../lib/secrets';
import { InvoiceError, type TInvoiceCaller } from './invoice-error';

type TDeps = { db: TDatabase; clock: TClock; config: { publicUrl: string } };

export async function setInvoicePublicLink(o: {
  deps: TDeps;
  caller: TInvoiceCaller;
  params: { invoiceId: string; revoke: boolean };
}): Promise<TInvoicePublicLink> {
  const { db, clock, config } = o.deps;
  const code = o.params.revoke ? null : createOpaqueToken();
  const at = code ? new Date(clock.now()) : null;
  const [row] = await db
    .update(invoices)
    .set({ publicCodeHash: code ? sha256Hex(code) : null, publicCodeCreatedAt: at })
    .where(and(eq(invoices.id, o.params.invoiceId), eq(invoices.accountId, o.caller.accountId)))
    .returning({ id: invoices.id });
  if (!row) throw new InvoiceError('not_found');
  if (!code) return { invoiceId: row.id, code: null, url: null, pdfUrl: null, createdAt: null };
  return {
    invoiceId: row.id,
    code,
    url: `${config.publicUrl}${INVOICE_PAGE_PATH}/${code}`,
    pdfUrl: config.publicUrl + invoicePdfPath(code, 'en'),
    createdAt: at!.getTime(),
  };
}
