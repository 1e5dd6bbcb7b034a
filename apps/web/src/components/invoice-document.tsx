/**
 * One invoice as a document: seller, buyer as issued, number, date, payment method, the lines and the totals. The
 * public page (/invoice/{code}) and the billing screen's invoice view both show it; it prints on one A4 page.
 */
import type { TInvoiceLine, TInvoiceParty, TInvoiceView } from '@rpc/contract';
import { formatCents } from '@rpc/contract';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '../lib/format-number';
import { useLocale } from '../lib/i18n';
import { VisuallyHidden } from './visually-hidden';
import './invoice-document.css';

const usd = (cents: number) => `$${formatCents(cents)}`;
/** The issue date as the number's year counts it: UTC. */
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A dedicated node's line (dn:<chain>:<type>:<region>): no RUs; its quantity is months at a monthly price. */
const isNodeLine = (line: TInvoiceLine) => line.skuId.startsWith('dn:');

function buyerLines(b: TInvoiceParty): string[] {
  const place = [[b.city, b.state].filter(Boolean).join(', '), b.postalCode].filter(Boolean);
  return [
    b.company || b.name,
    b.company ? b.name : '',
    b.addressLine1,
    b.addressLine2,
    place.join(' '),
    b.country,
  ].filter(Boolean);
}

function Party({ heading, lines, extra }: { heading: string; lines: string[]; extra: string[] }) {
  return (
    <div className="invoice-document-party">
      <Typography.Text type="secondary">{heading}</Typography.Text>
      <address>
        {[...lines, ...extra].map((line, i) => (
          <div key={i} className={i === 0 ? 'invoice-document-party-name' : undefined}>
            {line}
          </div>
        ))}
      </address>
    </div>
  );
}

export function InvoiceDocument({ invoice }: { invoice: TInvoiceView }) {
  const { t } = useTranslation('invoice');
  const { lang } = useLocale();
  const numbers = numberFormat(lang);
  const { seller, buyer } = invoice;
  const buyerMain = buyerLines(buyer);
  const taxId = (value: string) => (value ? [t('document.taxId', { value })] : []);

  return (
    <article className="invoice-document" aria-labelledby="invoice-document-title">
      <header className="invoice-document-head">
        <Typography.Title level={2} id="invoice-document-title" style={{ margin: 0 }}>
          {t('document.title')}
        </Typography.Title>
        <div className="invoice-document-number">
          <strong>{invoice.number}</strong>
          <Tag color="success">{t('document.paid')}</Tag>
        </div>
      </header>

      <div className="invoice-document-parties">
        <Party
          heading={t('document.from')}
          lines={[seller.name, ...seller.addressLines]}
          extra={[seller.email, ...taxId(seller.taxId)].filter(Boolean)}
        />
        <dl className="invoice-document-facts">
          <dt>{t('document.number')}</dt>
          <dd>{invoice.number}</dd>
          <dt>{t('document.issued')}</dt>
          <dd>{utcDate(invoice.issuedAt)}</dd>
          <dt>{t('document.channel')}</dt>
          <dd>{t(`document.channels.${invoice.channel}`)}</dd>
          <dt>{t('document.currency')}</dt>
          <dd>{invoice.currency}</dd>
          <dt>{t('document.status')}</dt>
          <dd>{t('document.paid')}</dd>
        </dl>
      </div>

      {buyerMain.length > 0 || buyer.taxId || buyer.email ? (
        <Party
          heading={t('document.billTo')}
          lines={buyerMain}
          extra={[...taxId(buyer.taxId), buyer.email].filter(Boolean)}
        />
      ) : (
        <Party heading={t('document.billTo')} lines={[]} extra={[t('document.noBuyer')]} />
      )}

      <table className="invoice-document-lines">
        <caption className="invoice-document-caption">{t('document.lines')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('document.item')}</th>
            <th scope="col">{t('document.ru')}</th>
            <th scope="col">{t('document.quantity')}</th>
            <th scope="col">{t('document.unitPrice')}</th>
            <th scope="col">{t('document.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, i) => {
            const isNode = isNodeLine(line);
            return (
              <tr key={i}>
                <td>
                  {line.name[lang]}
                  <div className="invoice-document-sku">{line.skuId}</div>
                </td>
                <td>
                  {isNode ? (
                    <>
                      <span aria-hidden>—</span>
                      <VisuallyHidden>{t('document.noRu')}</VisuallyHidden>
                    </>
                  ) : (
                    numbers.format(line.ru)
                  )}
                </td>
                <td>{isNode ? t('document.months', { count: line.quantity }) : line.quantity}</td>
                <td>
                  {isNode
                    ? t('document.perMonth', { amount: usd(line.unitCents) })
                    : usd(line.unitCents)}
                </td>
                <td>{usd(line.amountCents)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <dl className="invoice-document-totals">
        <dt>{t('document.subtotal')}</dt>
        <dd>{usd(invoice.subtotalCents)}</dd>
        <dt>
          {invoice.discountCode
            ? t('document.discountWithCode', { code: invoice.discountCode })
            : t('document.discount')}
        </dt>
        <dd>{invoice.discountCents > 0 ? `-${usd(invoice.discountCents)}` : usd(0)}</dd>
        <dt className="invoice-document-total">{t('document.total')}</dt>
        <dd className="invoice-document-total">{usd(invoice.totalCents)}</dd>
      </dl>

      <footer className="invoice-document-footer">{t('document.footer')}</footer>
    </article>
  );
}
