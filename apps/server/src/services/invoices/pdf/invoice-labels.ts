/** Every word the invoice PDF prints, in English and Chinese (the web page has its own in locales/invoice.json). */
import type { TLanguage } from '@rpc/contract';

export type TInvoiceLabels = {
  title: string;
  paid: string;
  from: string;
  billTo: string;
  number: string;
  issued: string;
  channel: string;
  channels: { crypto: string; card: string };
  currency: string;
  status: string;
  taxId: string;
  /** after a label inside a line: ': ' or '：' */
  colon: string;
  item: string;
  ru: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  subtotal: string;
  discount: string;
  total: string;
  noBuyer: string;
  footer: string;
};

export const INVOICE_LABELS: Record<TLanguage, TInvoiceLabels> = {
  en: {
    title: 'INVOICE',
    paid: 'PAID',
    from: 'From',
    billTo: 'Bill to',
    number: 'Invoice number',
    issued: 'Issue date (UTC)',
    channel: 'Payment method',
    channels: { crypto: 'Wallet balance', card: 'Card' },
    currency: 'Currency',
    status: 'Status',
    taxId: 'Tax ID',
    colon: ': ',
    item: 'Item',
    ru: 'RUs',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discount: 'Discount',
    total: 'Total paid',
    noBuyer: 'No billing details had been saved when this invoice was issued.',
    footer:
      'Paid in full. This invoice was issued electronically and is valid without a signature.',
  },
  zh: {
    title: '发票',
    paid: '已支付',
    from: '开票方',
    billTo: '购买方',
    number: '发票编号',
    issued: '开票日期（UTC）',
    channel: '支付方式',
    channels: { crypto: '钱包余额', card: '银行卡' },
    currency: '币种',
    status: '状态',
    taxId: '税号',
    colon: '：',
    item: '项目',
    ru: 'RU 数量',
    quantity: '数量',
    unitPrice: '单价',
    amount: '金额',
    subtotal: '小计',
    discount: '折扣',
    total: '实付金额',
    noBuyer: '开具本发票时尚未填写开票信息。',
    footer: '已全额支付。本发票以电子方式开具，无需签章即有效。',
  },
};
