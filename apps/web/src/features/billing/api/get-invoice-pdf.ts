/**
 * hub_getInvoicePdf: an invoice of the acting account as a PDF file, in the page's language. It arrives as base64
 * in the answer (the session header is the proof) and is saved through a blob link.
 */
import type { TLanguage } from '@rpc/contract';
import { callRpc } from '../../../lib/rpc-client';

export function getInvoicePdf(invoiceId: string, language: TLanguage) {
  return callRpc('hub_getInvoicePdf', { invoiceId, language });
}

export async function downloadInvoicePdf(invoiceId: string, language: TLanguage): Promise<void> {
  const file = await getInvoicePdf(invoiceId, language);
  const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
