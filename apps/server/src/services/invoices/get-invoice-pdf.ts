/**
 * An invoice's PDF: for the acting account by id (hub_getInvoicePdf, base64 in the answer, so the session header
 * is the only proof needed), or for a live public code (GET /invoice-pdf, http/invoice-pdf-route.ts).
 */
import type { TInvoicePdf, TInvoiceSeller, TInvoiceView, TLanguage } from '@rpc/contract';
import { users, type TExecutor } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { getInvoiceView, getInvoiceViewByCode } from './get-invoice-view';
import { InvoiceError, type TInvoiceCaller } from './invoice-error';
import { loadInvoiceFonts } from './pdf/invoice-fonts';
import { renderInvoicePdf } from './pdf/render-invoice-pdf';

type TDeps = { db: TExecutor; config: { invoiceSeller: TInvoiceSeller } };
export type TInvoiceFile = { fileName: string; pdf: Buffer };

export async function renderInvoiceFile(
  invoice: TInvoiceView,
  language: TLanguage,
): Promise<TInvoiceFile> {
  const pdf = await renderInvoicePdf({ invoice, language, fonts: await loadInvoiceFonts() });
  return { fileName: `${invoice.number}.pdf`, pdf };
}

export async function getInvoicePdf(o: {
  deps: TDeps;
  caller: TInvoiceCaller;
  params: { invoiceId: string; language?: TLanguage | undefined };
}): Promise<TInvoicePdf> {
  const invoice = await getInvoiceView(o);
  const language = o.params.language ?? (await userLanguage(o.deps.db, o.caller.userId));
  const file = await renderInvoiceFile(invoice, language);
  return {
    fileName: file.fileName,
    contentType: 'application/pdf',
    base64: file.pdf.toString('base64'),
  };
}

/** The PDF behind a public code, or null for any code that is not live. */
export async function readPublicInvoicePdf(
  deps: TDeps,
  code: string,
  language: TLanguage,
): Promise<TInvoiceFile | null> {
  try {
    return await renderInvoiceFile(
      await getInvoiceViewByCode({ deps, params: { code } }),
      language,
    );
  } catch (err) {
    if (err instanceof InvoiceError) return null;
    throw err;
  }
}

async function userLanguage(db: TExecutor, userId: string): Promise<TLanguage> {
  const [row] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  return row?.language ?? 'en';
}
