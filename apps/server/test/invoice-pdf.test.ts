/**
 * Invoice PDFs on each test database, read back as text (unpdf): English and Chinese, the numbers and totals equal
 * to the money ledger, the user's language by default, and the public GET route for live codes only.
 */
import { randomUUID } from 'node:crypto';
import { discountCodes } from '@rpc/db';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from './helpers/databases';
import { DEFAULT_THROTTLE_RULES } from '../src/throttle/rules';
import { createHarness, type THarness } from './helpers/harness';
import { invoiceTestKit, type TInvoiceTestUser } from './helpers/invoices';

async function textOf(pdf: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), {
    mergePages: true,
  });
  // pdf.js may break a line anywhere; whitespace runs are one space.
  return text.replace(/\s+/g, ' ');
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

describe.each(TEST_DATABASES)('invoice PDFs on $name', ({ open }) => {
  let h: THarness;
  const kit = invoiceTestKit(() => h);
  beforeAll(async () => {
    h = await createHarness(open, {
      env: {
        INVOICE_SELLER_NAME: 'Node Operators Pte. Ltd.',
        INVOICE_SELLER_ADDRESS: '1 Harbour Road | Singapore 018956',
        INVOICE_SELLER_TAX_ID: 'SG-201912345K',
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A purchase of standard-100m with 20% off, by a buyer with details in several scripts. */
  async function discountedInvoice(u: TInvoiceTestUser) {
    const code = `PDF-${randomUUID().slice(0, 8).toUpperCase()}`;
    await h.database.db.insert(discountCodes).values({ code, percentOff: 20, skuIds: [] });
    await h.call('hub_setUserDiscountCode', { code }, { token: u.token });
    await h.call(
      'hub_updateUserInvoiceConfig',
      {
        name: 'Zoë Łukasiewicz',
        company: '北京节点科技有限公司',
        addressLine1: 'Тверская 1',
        city: 'Beijing',
        country: 'China',
        taxId: '91110000MA01234567',
      },
      { token: u.token },
    );
    await kit.credit(u.accountId, 10_000);
    const purchase = await kit.buy(u.token);
    const invoice = (await kit.invoicesOf(u.token)).list[0]!;
    return { code, purchase, invoice, paid: await kit.ledgerPaid(u.accountId, purchase.id) };
  }

  async function pdfOf(token: string, invoiceId: string, language?: 'en' | 'zh') {
    const res = await h.call(
      'hub_getInvoicePdf',
      { invoiceId, ...(language ? { language } : {}) },
      { token },
    );
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return { ...res.result, bytes: Buffer.from(res.result.base64, 'base64') };
  }

  it('prints the invoice in English with the totals the ledger took', async () => {
    const u = await kit.user();
    const { invoice, paid, code } = await discountedInvoice(u);
    expect(paid).toBe(3920);
    const pdf = await pdfOf(u.token, invoice.id, 'en');
    expect(pdf).toMatchObject({
      fileName: `${invoice.number}.pdf`,
      contentType: 'application/pdf',
    });
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Fonts are subset: a few dozen kilobytes, not the megabytes of the whole CJK font.
    expect(pdf.bytes.length).toBeLessThan(150_000);
    const text = await textOf(pdf.bytes);
    for (const expected of [
      'INVOICE',
      'PAID',
      invoice.number,
      'Node Operators Pte. Ltd.',
      '1 Harbour Road',
      'Tax ID: SG-201912345K',
      'Bill to',
      '北京节点科技有限公司',
      'Zoë Łukasiewicz',
      'Тверская 1',
      'Tax ID: 91110000MA01234567',
      'Payment method',
      'Wallet balance',
      '100M RUs',
      '100,000,000',
      `Subtotal ${usd(4900)}`,
      `Discount (${code}) -${usd(980)}`,
      `Total paid ${usd(paid)}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('prints it in Chinese, and in the user’s language when none is asked for', async () => {
    const u = await kit.user({ language: 'zh' });
    const { invoice, paid } = await discountedInvoice(u);
    for (const language of ['zh', undefined] as const) {
      const text = await textOf((await pdfOf(u.token, invoice.id, language)).bytes);
      for (const expected of [
        '发票',
        '已支付',
        invoice.number,
        '购买方',
        '北京节点科技有限公司',
        '税号：91110000MA01234567',
        '支付方式',
        '钱包余额',
        '1 亿 RU',
        `小计 ${usd(4900)}`,
        `实付金额 ${usd(paid)}`,
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain('Total paid');
    }
  });

  it('serves the PDF of a live public code to anyone, as a download', async () => {
    const u = await kit.user();
    await kit.credit(u.accountId, 10_000);
    const purchase = await kit.buy(u.token);
    const invoice = (await kit.invoicesOf(u.token)).list[0]!;
    const link = await h.call(
      'hub_getInvoicePreviewCode',
      { invoiceId: invoice.id },
      { token: u.token },
    );
    const code = link.result!.code!;
    const get = (url: string) => h.server.app.inject({ method: 'GET', url });

    const res = await get(`/invoice-pdf?code=${code}&lang=zh`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${invoice.number}.pdf"; filename*=UTF-8''${invoice.number}.pdf`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const text = await textOf(res.rawPayload);
    expect(text).toContain(invoice.number);
    expect(text).toContain(`实付金额 ${usd(await kit.ledgerPaid(u.accountId, purchase.id))}`);
    // An unknown language falls back to English.
    expect(await textOf((await get(`/invoice-pdf?code=${code}&lang=fr`)).rawPayload)).toContain(
      'Total paid',
    );

    for (const url of [
      '/invoice-pdf',
      '/invoice-pdf?code=',
      `/invoice-pdf?code=${'A'.repeat(43)}`,
      `/invoice-pdf?code=${code}x`,
      `/invoice-pdf?code=${code}&code=${code}`,
      `/invoice-pdf?code=${'x'.repeat(5000)}`,
      `/invoice-pdf?code=${encodeURIComponent("' or 1=1 --")}`,
    ]) {
      const refused = await get(url);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.headers['content-type']).not.toContain('pdf');
    }
    await h.call(
      'hub_getInvoicePreviewCode',
      { invoiceId: invoice.id, revoke: true },
      { token: u.token },
    );
    expect((await get(`/invoice-pdf?code=${code}`)).statusCode).toBe(404);
  });

  it('counts every request of the public route against its IP: past the limit 429 with Retry-After, other IPs go on', async () => {
    const from = (remoteAddress: string) =>
      h.server.app.inject({
        method: 'GET',
        url: `/invoice-pdf?code=${'B'.repeat(43)}`,
        remoteAddress,
      });
    const limit = DEFAULT_THROTTLE_RULES.invoicePdf.perIp.limit;
    for (let i = 0; i < limit; i += 1) expect((await from('203.0.113.77')).statusCode).toBe(404);
    const refused = await from('203.0.113.77');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(DEFAULT_THROTTLE_RULES.invoicePdf.perIp.windowMs / 1000);
    expect(refused.headers['content-type']).not.toContain('pdf');
    expect((await from('203.0.113.78')).statusCode).toBe(404);
  });
});
