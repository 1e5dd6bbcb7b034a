/**
 * One invoice as an A4 PDF (pdfkit): seller and buyer, number, issue date, payment method, the line, subtotal,
 * discount and total paid, in English or Chinese. Fonts are subset into the file, so it reads the same anywhere.
 */
import { formatCents, type TInvoiceView, type TLanguage } from '@rpc/contract';
import PDFDocument from 'pdfkit';
import { splitByFont, type TInvoiceFonts } from './invoice-fonts';
import { INVOICE_LABELS, type TInvoiceLabels } from './invoice-labels';

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const INK = '#1f2937';
const MUTED = '#6b7280';
const RULE = '#e5e7eb';
const HEAD_FILL = '#f3f4f6';
const PAID = '#15803d';

type TStyle = {
  width: number;
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right' | 'center';
};

export async function renderInvoicePdf(o: {
  invoice: TInvoiceView;
  language: TLanguage;
  fonts: TInvoiceFonts;
}): Promise<Buffer> {
  const { invoice, fonts } = o;
  const labels = INVOICE_LABELS[o.language];
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `${labels.title} ${invoice.number}`,
      Author: invoice.seller.name,
      // the issue date, not the render time: the same invoice gives the same document
      CreationDate: new Date(invoice.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const f of [fonts.regular, fonts.bold, ...fonts.fallbacks]) doc.registerFont(f.name, f.data);

  /** Writes text at (x, y), each character in a font that has it; answers the y below it. */
  const write = (text: string, x: number, y: number, style: TStyle): number => {
    const runs = splitByFont(text, style.bold ? fonts.bold : fonts.regular, fonts.fallbacks);
    doc.fontSize(style.size ?? 10).fillColor(style.color ?? INK);
    runs.forEach((run, i) => {
      const continued = i < runs.length - 1;
      doc.font(run.font.name);
      if (i === 0) doc.text(run.text, x, y, { width: style.width, align: style.align, continued });
      else doc.text(run.text, { continued });
    });
    return doc.y;
  };
  const rule = (y: number) =>
    doc
      .moveTo(MARGIN, y)
      .lineTo(PAGE_WIDTH - MARGIN, y)
      .lineWidth(0.8)
      .strokeColor(RULE)
      .stroke();

  // Heading: title, number and the paid mark.
  const half = CONTENT_WIDTH / 2;
  write(labels.title, MARGIN, MARGIN, { width: half, size: 22, bold: true });
  write(invoice.number, MARGIN + half, MARGIN + 2, {
    width: half,
    size: 12,
    bold: true,
    align: 'right',
  });
  const badgeWidth = 72;
  const badgeX = PAGE_WIDTH - MARGIN - badgeWidth;
  doc
    .roundedRect(badgeX, MARGIN + 24, badgeWidth, 20, 4)
    .lineWidth(1)
    .strokeColor(PAID)
    .stroke();
  write(labels.paid, badgeX, MARGIN + 28, {
    width: badgeWidth,
    size: 10,
    bold: true,
    color: PAID,
    align: 'center',
  });
  rule(MARGIN + 58);

  // Seller on the left, the invoice's facts on the right.
  let y = MARGIN + 74;
  const leftWidth = 250;
  const sellerEnd = block(write, labels.from, sellerLines(invoice, labels), MARGIN, y, leftWidth);
  const factsX = MARGIN + 270;
  const factsWidth = CONTENT_WIDTH - 270;
  const facts: Array<[string, string]> = [
    [labels.number, invoice.number],
    [labels.issued, new Date(invoice.issuedAt).toISOString().slice(0, 10)],
    [labels.channel, labels.channels[invoice.channel]],
    [labels.currency, invoice.currency],
    [labels.status, labels.paid],
  ];
  let factsY = y;
  for (const [label, value] of facts) {
    write(label, factsX, factsY, { width: factsWidth, color: MUTED });
    factsY = write(value, factsX, factsY, { width: factsWidth, align: 'right' }) + 4;
  }
  y = Math.max(sellerEnd, factsY) + 16;

  // Buyer, as the account's billing details were when the invoice was issued.
  const buyer = buyerLines(invoice, labels);
  y =
    block(
      write,
      labels.billTo,
      buyer.length > 0 ? buyer : [labels.noBuyer],
      MARGIN,
      y,
      CONTENT_WIDTH,
    ) + 20;

  // The lines.
  const columns = [
    { label: labels.item, width: 215, align: 'left' as const },
    { label: labels.ru, width: 80, align: 'right' as const },
    { label: labels.quantity, width: 40, align: 'right' as const },
    { label: labels.unitPrice, width: 80, align: 'right' as const },
    { label: labels.amount, width: 80, align: 'right' as const },
  ];
  const row = (cells: string[], top: number, style: Partial<TStyle>): number => {
    let x = MARGIN;
    let bottom = top;
    cells.forEach((cell, i) => {
      const c = columns[i]!;
      bottom = Math.max(
        bottom,
        write(cell, x + 6, top, { ...style, width: c.width - 12, align: c.align }),
      );
      x += c.width;
    });
    return bottom;
  };
  doc.rect(MARGIN, y, CONTENT_WIDTH, 22).fill(HEAD_FILL);
  y =
    row(
      columns.map((c) => c.label),
      y + 6,
      { size: 9, bold: true, color: MUTED },
    ) + 8;
  for (const line of invoice.lines) {
    y = row(
      [
        line.name[o.language],
        number(line.ru),
        String(line.quantity),
        usd(line.unitCents),
        usd(line.amountCents),
      ],
      y + 6,
      {},
    );
    y =
      write(line.skuId, MARGIN + 6, y + 1, {
        width: columns[0]!.width - 12,
        size: 8,
        color: MUTED,
      }) + 6;
    rule(y);
  }

  // Totals, under the money columns.
  const totalsX = MARGIN + 255;
  const totalsWidth = CONTENT_WIDTH - 255;
  const total = (label: string, value: string, top: number, style: Partial<TStyle> = {}) => {
    write(label, totalsX + 6, top, { ...style, width: totalsWidth - 92 });
    return write(value, totalsX + totalsWidth - 86, top, { ...style, width: 80, align: 'right' });
  };
  y = total(labels.subtotal, usd(invoice.subtotalCents), y + 10) + 6;
  const code = invoice.discountCode ? ` (${invoice.discountCode})` : '';
  const discount = invoice.discountCents > 0 ? `-${usd(invoice.discountCents)}` : usd(0);
  y = total(labels.discount + code, discount, y) + 8;
  doc
    .moveTo(totalsX, y)
    .lineTo(PAGE_WIDTH - MARGIN, y)
    .lineWidth(0.8)
    .strokeColor(RULE)
    .stroke();
  total(labels.total, usd(invoice.totalCents), y + 8, { size: 12, bold: true });

  write(labels.footer, MARGIN, PAGE_HEIGHT - MARGIN - 24, {
    width: CONTENT_WIDTH,
    size: 8,
    color: MUTED,
    align: 'center',
  });
  doc.end();
  return done;
}

type TWrite = (text: string, x: number, y: number, style: TStyle) => number;

/** A muted heading over lines, the first one bold; answers the y below it. */
function block(
  write: TWrite,
  heading: string,
  lines: string[],
  x: number,
  y: number,
  width: number,
) {
  let at = write(heading, x, y, { width, size: 9, color: MUTED }) + 3;
  lines.forEach((text, i) => {
    at = write(text, x, at, { width, bold: i === 0 }) + 1;
  });
  return at;
}

function sellerLines(invoice: TInvoiceView, labels: TInvoiceLabels): string[] {
  const s = invoice.seller;
  return [
    s.name,
    ...s.addressLines,
    s.email,
    s.taxId && labels.taxId + labels.colon + s.taxId,
  ].filter((l) => l !== '');
}

function buyerLines(invoice: TInvoiceView, labels: TInvoiceLabels): string[] {
  const b = invoice.buyer;
  const place = [[b.city, b.state].filter(Boolean).join(', '), b.postalCode]
    .filter(Boolean)
    .join(' ');
  return [
    b.company || b.name,
    b.company ? b.name : '',
    b.addressLine1,
    b.addressLine2,
    place,
    b.country,
    b.taxId && labels.taxId + labels.colon + b.taxId,
    b.email,
  ].filter((l) => l !== '');
}

function usd(cents: number): string {
  return `$${formatCents(cents)}`;
}

function number(n: number): string {
  return new Intl.NumberFormat('en-US').format(n);
}
