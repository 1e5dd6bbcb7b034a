/**
 * The invoices screen (/rpc/billings/invoice) against a fake API checked against the contract: the paged list,
 * viewing, PDF download, public links, and the billing details form with its validation, in both languages.
 */
import type {
  TInvoiceConfig,
  TInvoiceSummary,
  TInvoiceView,
  TMethodName,
  TParamsIn,
} from '@rpc/contract';
import { ERROR_CODES, ZInvoiceConfigInputSchema } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { fakeRpc, type TFakeHandler } from '../../test/fake-api';
import { BillingInvoicePage } from './components/billing-invoice-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const JAN_2026 = Date.UTC(2026, 0, 15, 10, 30);
const CODE = 'C'.repeat(43);

function makeSummary(i: number): TInvoiceSummary {
  return {
    id: uuid(i),
    number: `INV-2026-${String(i).padStart(6, '0')}`,
    issuedAt: JAN_2026 + i * 86_400_000,
    currency: 'USD',
    channel: i % 2 === 0 ? 'card' : 'crypto',
    purchaseId: uuid(100 + i),
    dnOrderId: null,
    itemName: { en: `Growth #${i}`, zh: `成长版 #${i}` },
    totalCents: 3920,
    publicLinkCreatedAt: null,
  };
}

/** A dedicated node's order as an invoice: no package purchase, one line of 3 months at $5.00 a month. */
function makeNodeSummary(i: number): TInvoiceSummary {
  return {
    ...makeSummary(i),
    purchaseId: null,
    dnOrderId: uuid(200 + i),
    itemName: {
      en: 'Localnet (Hardhat) full node · This server',
      zh: '本地测试链（Hardhat） 全节点 · 本机',
    },
    totalCents: 1425,
  };
}

function makeView(s: TInvoiceSummary): TInvoiceView {
  if (s.dnOrderId !== null) {
    return {
      ...makeView({ ...s, dnOrderId: null }),
      lines: [
        {
          skuId: 'dn:localnet:full:local',
          name: s.itemName,
          ru: 0,
          quantity: 3,
          unitCents: 500,
          amountCents: 1500,
        },
      ],
      subtotalCents: 1500,
      discountCents: 75,
      totalCents: s.totalCents,
      discountCode: null,
    };
  }
  return {
    id: s.id,
    number: s.number,
    issuedAt: s.issuedAt,
    currency: 'USD',
    channel: s.channel,
    status: 'paid',
    seller: { name: 'RPC Console', addressLines: ['1 Harbour Road'], email: 's@x.io', taxId: '' },
    buyer: { ...EMPTY_CONFIG, name: 'Ada Lovelace', company: 'Engines Ltd.' },
    lines: [
      {
        skuId: 'growth',
        name: s.itemName,
        ru: 10_000_000,
        quantity: 1,
        unitCents: 4900,
        amountCents: 4900,
      },
    ],
    subtotalCents: 4900,
    discountCents: 980,
    totalCents: s.totalCents,
    discountCode: 'WELCOME',
  };
}

const EMPTY_CONFIG = {
  name: '',
  company: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  taxId: '',
  email: '',
};

let invoices: TInvoiceSummary[];
let config: TInvoiceConfig;
let overrides: Partial<Record<TMethodName, TFakeHandler>>;

const handlers: Partial<Record<TMethodName, TFakeHandler>> = {
  hub_getUserInvoice: (p: TParamsIn<'hub_getUserInvoice'>) => {
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 5;
    const found = invoices.filter(
      (i) => !p.channel || p.channel === 'all' || i.channel === p.channel,
    );
    return {
      list: found.slice((page - 1) * perPage, page * perPage),
      total: found.length,
      page,
      perPage,
    };
  },
  hub_getUserInvoiceConfig: () => config,
  hub_updateUserInvoiceConfig: (p: TParamsIn<'hub_updateUserInvoiceConfig'>) => {
    config = { ...config, ...ZInvoiceConfigInputSchema.parse(p), updatedAt: JAN_2026 };
    return config;
  },
  hub_getInvoiceView: (p: TParamsIn<'hub_getInvoiceView'>) =>
    makeView(invoices.find((i) => i.id === p.invoiceId)!),
  hub_getInvoicePreviewCode: (p: TParamsIn<'hub_getInvoicePreviewCode'>) =>
    p.revoke
      ? { invoiceId: p.invoiceId, code: null, url: null, pdfUrl: null, createdAt: null }
      : {
          invoiceId: p.invoiceId,
          code: CODE,
          url: `http://console.test/invoice/${CODE}`,
          pdfUrl: `http://console.test/invoice-pdf?code=${CODE}&lang=en`,
          createdAt: JAN_2026,
        },
  hub_getInvoicePdf: (p: TParamsIn<'hub_getInvoicePdf'>) => ({
    fileName: `${invoices.find((i) => i.id === p.invoiceId)!.number}.pdf`,
    contentType: 'application/pdf',
    base64: btoa('%PDF-1.7 test'),
  }),
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function fail(method: TMethodName) {
  return () => {
    throw new RpcCallError(method, { code: 10500, message: 'Internal', messageZh: '内部' });
  };
}

function renderPage(path = '/rpc/billings/invoice') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <BillingInvoicePage />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

const list = () => within(screen.getByRole('region', { name: 'Invoice list' }));

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  invoices = Array.from({ length: 12 }, (_, i) => makeSummary(12 - i));
  config = { ...EMPTY_CONFIG, updatedAt: null };
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('invoice list', () => {
  it('shows number, date, item, amount and payment method, five a page', async () => {
    renderPage();
    const row = (await list().findByText('INV-2026-000012')).closest('tr')!;
    expect(within(row).getByText('Growth #12')).toBeInTheDocument();
    expect(within(row).getByText('$39.20')).toBeInTheDocument();
    expect(within(row).getByText('Card')).toBeInTheDocument();
    expect(list().getByText('12 invoices')).toBeInTheDocument();
    expect(list().queryByText('INV-2026-000007')).not.toBeInTheDocument();
    await userEvent.click(list().getByRole('listitem', { name: '2' }));
    expect(await list().findByText('INV-2026-000007')).toBeInTheDocument();
    expect(calls('hub_getUserInvoice').at(-1)).toEqual({
      page: 2,
      perPage: 5,
      channel: 'all',
      sort: 'desc',
    });
  });

  it('filters by payment method', async () => {
    renderPage();
    await list().findByText('INV-2026-000012');
    await userEvent.click(screen.getByRole('combobox', { name: 'Payment method' }));
    const option = (await screen.findAllByTitle('Wallet balance')).at(-1)!;
    await userEvent.click(option);
    await waitFor(() => expect(calls('hub_getUserInvoice').at(-1)?.channel).toBe('crypto'));
    expect(await list().findByText('6 invoices')).toBeInTheDocument();
  });

  it('says when there are none, and offers a retry when the list fails', async () => {
    invoices = [];
    const view = renderPage();
    expect(await list().findByText(/No invoices yet/)).toBeInTheDocument();
    view.unmount();
    overrides.hub_getUserInvoice = fail('hub_getUserInvoice');
    renderPage();
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
    delete overrides.hub_getUserInvoice;
    invoices = [makeSummary(1)];
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await list().findByText('INV-2026-000001')).toBeInTheDocument();
  });

  it('shows one invoice as a document', async () => {
    renderPage();
    await userEvent.click(
      await list().findByRole('button', { name: 'View invoice INV-2026-000012' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Invoice INV-2026-000012' }));
    expect(await dialog.findByText('Engines Ltd.')).toBeInTheDocument();
    expect(dialog.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(dialog.getByText('Discount (WELCOME)')).toBeInTheDocument();
    expect(dialog.getByText('-$9.80')).toBeInTheDocument();
    expect(dialog.getByText('Total paid').nextElementSibling).toHaveTextContent('$39.20');
  });

  it.each([
    ['en', '3 months', '$5.00 / month', 'No RUs'],
    ['zh', '3 个月', '$5.00 / 月', '无 RU'],
  ] as const)(
    'shows a dedicated node line in %s: months as the quantity, a monthly price, no RUs',
    async (lang, months, unit, noRu) => {
      await act(() => i18n.changeLanguage(lang));
      invoices = [makeNodeSummary(13), makeSummary(12)];
      renderPage(lang === 'zh' ? '/zh/rpc/billings/invoice' : undefined);
      const number = 'INV-2026-000013';
      const row = (await screen.findByText(number)).closest('tr')!;
      expect(row).toHaveTextContent(lang === 'en' ? 'Localnet (Hardhat) full node' : '本地测试链');
      expect(row).toHaveTextContent('$14.25');
      await userEvent.click(within(row).getAllByRole('button')[0]!);
      const dialog = within(await screen.findByRole('dialog'));
      const line = (await dialog.findByText('dn:localnet:full:local')).closest('tr')!;
      const cells = within(line).getAllByRole('cell');
      expect(cells.map((c) => c.textContent)).toEqual([
        expect.stringContaining('dn:localnet:full:local'),
        `—${noRu}`,
        months,
        unit,
        '$15.00',
      ]);
      // The RU cell reads as words, never as "0".
      expect(within(cells[1]!).getByText('—')).toHaveAttribute('aria-hidden', 'true');
      expect(line).not.toHaveTextContent(/\b0\b/);
    },
  );

  it('keeps a package line as RUs and a plain quantity', async () => {
    renderPage();
    await userEvent.click(
      await list().findByRole('button', { name: 'View invoice INV-2026-000012' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Invoice INV-2026-000012' }));
    const line = (await dialog.findByText('growth')).closest('tr')!;
    expect(
      within(line)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Growth #12growth', '10,000,000', '1', '$49.00', '$49.00']);
  });

  it('downloads the PDF in the page’s language, and says so when it cannot', async () => {
    const createObjectURL = vi.fn(() => 'blob:invoice');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    renderPage();
    await userEvent.click(
      await list().findByRole('button', { name: 'Download invoice INV-2026-000012 as PDF' }),
    );
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(calls('hub_getInvoicePdf')).toEqual([{ invoiceId: uuid(12), language: 'en' }]);
    expect(clicked[0]!.download).toBe('INV-2026-000012.pdf');
    expect(clicked[0]!.href).toBe('blob:invoice');

    overrides.hub_getInvoicePdf = fail('hub_getInvoicePdf');
    await userEvent.click(
      list().getByRole('button', { name: 'Download invoice INV-2026-000011 as PDF' }),
    );
    expect(
      await screen.findByText('The PDF could not be made. Please try again.'),
    ).toBeInTheDocument();
  });

  it('makes, replaces and revokes a public link', async () => {
    renderPage();
    await userEvent.click(
      await list().findByRole('button', { name: 'Public link of invoice INV-2026-000012' }),
    );
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Public link of invoice INV-2026-000012' }),
    );
    expect(dialog.getByText('This invoice has no public link.')).toBeInTheDocument();

    await userEvent.click(dialog.getByRole('button', { name: 'Create link' }));
    expect(await dialog.findByLabelText('Public link')).toHaveValue(
      `http://console.test/invoice/${CODE}`,
    );
    expect(dialog.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(dialog.getByText('Copy the link now: it is not shown again.')).toBeInTheDocument();

    await userEvent.click(dialog.getByRole('button', { name: 'Replace link' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Revoke link' }));
    const confirm = within(await screen.findByRole('tooltip'));
    await userEvent.click(confirm.getByRole('button', { name: 'Revoke link' }));
    expect(
      await dialog.findByText('The link was revoked and no longer works.'),
    ).toBeInTheDocument();
    expect(calls('hub_getInvoicePreviewCode')).toEqual([
      { invoiceId: uuid(12), revoke: false },
      { invoiceId: uuid(12), revoke: false },
      { invoiceId: uuid(12), revoke: true },
    ]);

    overrides.hub_getInvoicePreviewCode = fail('hub_getInvoicePreviewCode');
    await userEvent.click(dialog.getByRole('button', { name: 'Create link' }));
    expect(
      await dialog.findByText('The link could not be changed. Please try again.'),
    ).toBeInTheDocument();
  });

  it('says a link is on without showing it', async () => {
    invoices[0] = { ...invoices[0]!, publicLinkCreatedAt: JAN_2026 };
    renderPage();
    expect(await list().findByText('Public link on')).toBeInTheDocument();
    await userEvent.click(
      list().getByRole('button', { name: 'Public link of invoice INV-2026-000012' }),
    );
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/A public link made .* is on/)).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Replace link' })).toBeInTheDocument();
  });
});

describe('billing details', () => {
  const form = () => within(screen.getByRole('form', { name: 'Billing details' }));

  it('validates each field as the server does, and saves trimmed values', async () => {
    renderPage();
    const name = await screen.findByLabelText('Name');
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(101));
    await userEvent.type(form().getByLabelText('E-mail for invoices'), 'ada@');
    await userEvent.type(form().getByLabelText('Tax ID'), "1' OR 1=1");
    await userEvent.click(form().getByRole('button', { name: 'Save' }));
    expect(await form().findByText('At most 100 characters.')).toBeInTheDocument();
    expect(form().getByText('Enter an e-mail address, or leave it empty.')).toBeInTheDocument();
    expect(form().getByText('Letters, digits, spaces and . / - only.')).toBeInTheDocument();
    expect(calls('hub_updateUserInvoiceConfig')).toEqual([]);

    await userEvent.clear(name);
    await userEvent.type(name, '  Ada Lovelace ');
    await userEvent.type(form().getByLabelText('E-mail for invoices'), 'engines.example');
    await userEvent.clear(form().getByLabelText('Tax ID'));
    await userEvent.type(form().getByLabelText('Tax ID'), 'GB 123 4567 89');
    await userEvent.click(form().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Billing details saved.')).toBeInTheDocument();
    expect(calls('hub_updateUserInvoiceConfig')).toEqual([
      {
        ...EMPTY_CONFIG,
        name: 'Ada Lovelace',
        email: 'ada@engines.example',
        taxId: 'GB 123 4567 89',
      },
    ]);
    expect(form().getByLabelText('Name')).toHaveValue('Ada Lovelace');
  });

  it('refuses invisible characters', async () => {
    renderPage();
    await userEvent.click(await screen.findByLabelText('City'));
    await userEvent.paste('Lon\u202Edon');
    await userEvent.click(form().getByRole('button', { name: 'Save' }));
    expect(
      await form().findByText('Remove line breaks and invisible or control characters.'),
    ).toBeInTheDocument();
    expect(calls('hub_updateUserInvoiceConfig')).toEqual([]);
  });

  it('offers a retry when they cannot be loaded', async () => {
    overrides.hub_getUserInvoiceConfig = fail('hub_getUserInvoiceConfig');
    renderPage();
    expect(
      await screen.findByText('Your billing details could not be loaded.'),
    ).toBeInTheDocument();
    delete overrides.hub_getUserInvoiceConfig;
    config = { ...config, company: 'Engines Ltd.', updatedAt: JAN_2026 };
    const card = within(screen.getByRole('region', { name: 'Billing details' }));
    await userEvent.click(card.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Company')).toHaveValue('Engines Ltd.');
  });
});

it('speaks Chinese', async () => {
  await act(() => i18n.changeLanguage('zh'));
  renderPage('/zh/rpc/billings/invoice');
  expect(await screen.findByRole('heading', { name: '开票信息' })).toBeInTheDocument();
  const row = (await screen.findByText('INV-2026-000012')).closest('tr')!;
  expect(within(row).getByText('银行卡')).toBeInTheDocument();
  expect(within(row).getByText('成长版 #12')).toBeInTheDocument();
  expect(screen.getByText('共 12 张发票')).toBeInTheDocument();
  expect(ERROR_CODES.LINK_INVALID).toBe(10400);
});
