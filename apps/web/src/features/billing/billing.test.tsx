/** The billing screens lead to each other (SPEC §2: charge and invoices from billing, and back). */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { BillingChargePage } from './components/billing-charge-page';
import { BillingInvoicePage } from './components/billing-invoice-page';
import { BillingsPage } from './components/billings-page';

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderAt(path: string, Page: ComponentType) {
  // As the app's providers: no space squeezed into two-character Chinese button names.
  return render(
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={<Page />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </ConfigProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

describe('billing links', () => {
  it.each([
    ['/rpc/billings', BillingsPage, 'Top up', '/rpc/billings/charge'],
    ['/rpc/billings', BillingsPage, 'Invoices', '/rpc/billings/invoice'],
    ['/rpc/billings/charge', BillingChargePage, 'Back to billing', '/rpc/billings'],
    ['/rpc/billings/invoice', BillingInvoicePage, 'Back to billing', '/rpc/billings'],
  ] as const)('%s links "%s" to %s', async (path, Page, name, target) => {
    renderAt(path, Page);
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', target);
    await userEvent.click(link);
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(target);
  });

  it('keeps the /zh prefix', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt('/zh/rpc/billings', BillingsPage);
    expect(screen.getByRole('link', { name: '充值' })).toHaveAttribute(
      'href',
      '/zh/rpc/billings/charge',
    );
    expect(screen.getByRole('link', { name: '发票' })).toHaveAttribute(
      'href',
      '/zh/rpc/billings/invoice',
    );
    await act(() => i18n.changeLanguage('en'));
  });
});
