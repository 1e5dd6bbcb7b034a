/**
 * The public invoice page (/invoice/{code}, no session) against a fake API checked against the contract: the
 * document with its PDF link, a clear not-found state for dead codes, a retry for other failures, Chinese.
 */
import type { TInvoiceView, TMethodName, TParamsIn } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { fakeRpc, type TFakeHandler } from '../../test/fake-api';
import { InvoicePage } from './components/invoice-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const CODE = 'AbC_dEf-0123456789abcdefghijklmnopqrstuvwxy';

const INVOICE: TInvoiceView = {
  id: '00000000-0000-4000-8000-000000000001',
  number: 'INV-2026-000042',
  issuedAt: Date.UTC(2026, 10, 25, 23, 30),
  currency: 'USD',
  channel: 'card',
  status: 'paid',
  seller: {
    name: 'Node Operators Pte. Ltd.',
    addressLines: ['1 Harbour Road', 'Singapore 018956'],
    email: 'billing@nodes.example',
    taxId: 'SG-201912345K',
  },
  buyer: {
    name: 'Zoë Łukasiewicz',
    company: '北京节点科技有限公司',
    addressLine1: '12 Rue de la Paix',
    addressLine2: '',
    city: 'Paris',
    state: '',
    postalCode: '75002',
    country: 'France',
    taxId: 'FR 40 303 265 045',
    email: 'ap@example.fr',
  },
  lines: [
    {
      skuId: 'standard-100m',
      name: { en: '100M RUs', zh: '1 亿 RU' },
      ru: 100_000_000,
      quantity: 1,
      unitCents: 4900,
      amountCents: 4900,
    },
  ],
  subtotalCents: 4900,
  discountCents: 0,
  totalCents: 4900,
  discountCode: null,
};

let overrides: Partial<Record<TMethodName, TFakeHandler>>;
const handlers: Partial<Record<TMethodName, TFakeHandler>> = {
  hub_getInvoiceViewByCode: (p: TParamsIn<'hub_getInvoiceViewByCode'>) => {
    if (p.code !== CODE)
      throw new RpcCallError('hub_getInvoiceViewByCode', {
        code: ERROR_CODES.LINK_INVALID,
        message: 'This link is invalid or has expired.',
        messageZh: '该链接无效或已过期。',
      });
    return INVOICE;
  },
};

function renderAt(path: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retryDelay: 0 } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="invoice/:code" element={<InvoicePage />} />
          <Route path="zh/invoice/:code" element={<InvoicePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  await act(() => i18n.changeLanguage('en'));
});

describe('public invoice page', () => {
  it('shows the invoice with a PDF download, without a session', async () => {
    renderAt(`/invoice/${CODE}`);
    const doc = within(await screen.findByRole('article', { name: 'Invoice' }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Invoice INV-2026-000042');
    for (const text of [
      'Node Operators Pte. Ltd.',
      'Tax ID: SG-201912345K',
      '北京节点科技有限公司',
      'Zoë Łukasiewicz',
      'Paris 75002',
      'Tax ID: FR 40 303 265 045',
      '2026-11-25',
      'Card',
      '100M RUs',
      '100,000,000',
    ]) {
      expect(doc.getByText(text)).toBeInTheDocument();
    }
    expect(doc.getByText('Total paid').nextElementSibling).toHaveTextContent('$49.00');
    const pdf = screen.getByRole('link', { name: 'Download PDF' });
    expect(pdf).toHaveAttribute('href', `/invoice-pdf?code=${CODE}&lang=en`);
    expect(pdf).toHaveAttribute('download');
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith('hub_getInvoiceViewByCode', { code: CODE }, expect.anything());
  });

  it('says plainly that an unknown or revoked link does not work, and does not retry it', async () => {
    renderAt('/invoice/no-such-code');
    expect(
      await screen.findByRole('heading', { name: 'This invoice link does not work' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument();
    expect(rpc).toHaveBeenCalledTimes(1);
  });

  it('offers a retry when the invoice could not be loaded for another reason', async () => {
    let failures = 0;
    overrides.hub_getInvoiceViewByCode = () => {
      failures += 1;
      throw new RpcCallError('hub_getInvoiceViewByCode', {
        code: 10500,
        message: 'Internal',
        messageZh: '内部',
      });
    };
    renderAt(`/invoice/${CODE}`);
    expect(await screen.findByText('The invoice could not be loaded.')).toBeInTheDocument();
    expect(failures).toBe(3);
    delete overrides.hub_getInvoiceViewByCode;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Invoice' })).toBeInTheDocument();
  });

  it('speaks Chinese under /zh, PDF included', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt(`/zh/invoice/${CODE}`);
    const doc = within(await screen.findByRole('article', { name: '发票' }));
    expect(doc.getByText('实付金额').nextElementSibling).toHaveTextContent('$49.00');
    expect(doc.getByText('银行卡')).toBeInTheDocument();
    expect(doc.getByText('1 亿 RU')).toBeInTheDocument();
    expect(doc.getByText('税号：SG-201912345K')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '下载 PDF' })).toHaveAttribute(
      'href',
      `/invoice-pdf?code=${CODE}&lang=zh`,
    );
  });
});
