// Card payments as a buyer walks them (SPEC §7: saved cards, Stripe orders, polling), offline: the console runs with
// Stripe keys against the fake Stripe API (E2E.stripeApiBase), and the browser gets the fake Stripe.js
// (fixtures/fake-stripe-js.ts), which sends the card fields to the same fake through api.stripe.com, under the
// console's CSP, as real Stripe.js would.
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { registerConfirmAndSignIn } from './fixtures/account';
import { E2E } from './fixtures/env';
import { installFakeStripe } from './fixtures/fake-stripe-js';

/** "$1,234.56" (the first amount in the text) → 123456 */
function cents(text: string): number {
  const match = /\$([\d,]+)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in "${text}"`);
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number(match[2]);
}

/** 123456 → "$1,234.56", as the console writes it in English */
function usd(amount: number): string {
  const whole = Math.trunc(amount / 100).toLocaleString('en-US');
  return `$${whole}.${String(amount % 100).padStart(2, '0')}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The wallet balance the top-up page shows, in cents. */
async function walletCents(page: Page): Promise<number> {
  await page.goto('/rpc/billings/charge');
  const line = page.getByText(/^Wallet balance: \$/);
  await expect(line).toBeVisible();
  return cents((await line.textContent()) ?? '');
}

/** Opens "Add card" on /rpc/billings, types the card into the (fake) Stripe fields and saves it. */
async function addCard(page: Page, number: string): Promise<Locator> {
  await page
    .getByRole('region', { name: 'Payment cards' })
    .getByRole('button', { name: 'Add card' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add a card' });
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry').fill('12 / 34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Save card' }).click();
  return dialog;
}

/** Every Content-Security-Policy complaint Chromium makes while the test runs. */
function watchCsp(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

test('save a card, buy a package and top up by card; a declined card charges nothing', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const cspViolations = watchCsp(page);
  await installFakeStripe(page, E2E.stripeApiBase);
  await registerConfirmAndSignIn(page, 'e2e-cards');
  const cards = page.getByRole('region', { name: 'Payment cards' });

  await test.step('a saved card is listed as the default', async () => {
    await page.goto('/rpc/billings');
    await expect(cards.getByText(/No saved cards/)).toBeVisible();
    const dialog = await addCard(page, '4242424242424242');
    await expect(dialog).toBeHidden();
    const card = cards.getByRole('listitem').filter({ hasText: 'Visa •••• 4242' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Expires 12/2034');
    await expect(card.getByText('Default', { exact: true })).toBeVisible();
  });

  const startCents = await walletCents(page);
  const purchaseCount = page.getByText(/^\d+ purchases?$/);
  let purchasesAfterBuying = '';

  await test.step('a package bought by card: paid, in the history, the wallet untouched', async () => {
    await page.goto('/rpc/billings');
    await page.getByRole('button', { name: 'Buy 100M RUs' }).click();
    const dialog = page.getByRole('dialog', { name: /Confirm purchase/ });
    await dialog
      .getByRole('group', { name: 'Pay with' })
      .getByRole('radio', { name: 'Card' })
      .check();
    await expect(dialog.getByText('Visa •••• 4242 (default)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Pay $49.00 by card' }).click();
    await expect(dialog.getByRole('status', { name: 'Card payment' })).toContainText(
      'Paid $49.00 by card. 100M RUs is yours',
      { timeout: 30_000 },
    );
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    const purchase = page
      .getByRole('region', { name: 'Purchases' })
      .getByRole('row')
      .filter({ hasText: '100M RUs' });
    await expect(purchase).toHaveCount(1);
    await expect(purchase).toContainText('Card');
    await expect(purchase).toContainText('$49.00');
    purchasesAfterBuying = (await purchaseCount.textContent()) ?? '';
    expect(await walletCents(page)).toBe(startCents);
  });

  await test.step('the card purchase has an invoice: public link, page and PDF', async () => {
    await page.goto('/rpc/billings/invoice');
    const row = page
      .getByRole('region', { name: 'Invoice list' })
      .getByRole('row')
      .filter({ hasText: /INV-\d{4}-000001/ });
    await expect(row).toContainText('$49.00');
    const number = /INV-\d{4}-000001/.exec((await row.textContent()) ?? '')![0];
    await row.getByRole('button', { name: `Public link of invoice ${number}` }).click();
    const linkDialog = page.getByRole('dialog', { name: `Public link of invoice ${number}` });
    await expect(linkDialog.getByText('This invoice has no public link.')).toBeVisible();
    // antd zooms the dialog in; a click before it settles may land on nothing.
    await expect(page.locator('.ant-modal.ant-zoom-appear, .ant-modal.ant-zoom-enter')).toHaveCount(
      0,
    );
    await linkDialog.getByRole('button', { name: 'Create link' }).click();
    await expect(linkDialog.getByText('Copy the link now: it is not shown again.')).toBeVisible();
    const url = await linkDialog.getByLabel('Public link').inputValue();
    expect(url).toMatch(/\/invoice\/[A-Za-z0-9_-]{20,}$/);

    // The link works for anyone: a fresh browser context without the session.
    const stranger = await page.context().browser()!.newContext();
    const publicPage = await stranger.newPage();
    await publicPage.goto(url);
    await expect(publicPage.getByText(number).first()).toBeVisible();
    await expect(publicPage.getByText('$49.00').first()).toBeVisible();
    const [download] = await Promise.all([
      publicPage.waitForEvent('download'),
      publicPage.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await stranger.close();
    await linkDialog.getByRole('button', { name: 'Close' }).first().click();
  });

  await test.step('a top-up of $12.34 by card grows the wallet by exactly $12.34', async () => {
    await page.goto('/rpc/billings/charge');
    const topUp = page.getByRole('region', { name: 'Top up by card' });
    await topUp.getByLabel('Amount (USD)').fill('12.34');
    await topUp.getByRole('button', { name: 'Pay $12.34' }).click();
    await expect(topUp.getByRole('status', { name: 'Card payment' })).toContainText(
      'Paid $12.34 by card. Your wallet is credited with $12.34.',
      { timeout: 30_000 },
    );
    await expect(page.getByText(/^Wallet balance: \$/)).toHaveText(
      new RegExp(`^Wallet balance: ${escapeRegExp(usd(startCents + 1234))}\\.`),
    );
  });

  await test.step('a card declined when saved says why and is not saved', async () => {
    await page.goto('/rpc/billings');
    const dialog = await addCard(page, '4000000000000002');
    await expect(
      dialog.getByText('The card could not be saved: the card was declined.'),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(cards.getByRole('listitem')).toHaveCount(1);
  });

  await test.step('a card declined when charged says why and charges nothing', async () => {
    const dialog = await addCard(page, '4000000000000341');
    await expect(dialog).toBeHidden();
    await expect(cards.getByRole('listitem')).toHaveCount(2);

    await page.goto('/rpc/billings/charge');
    const topUp = page.getByRole('region', { name: 'Top up by card' });
    await topUp.getByLabel('Amount (USD)').fill('20');
    // antd draws the chosen card over the combobox's input: the click lands on the select, as a user's does.
    await topUp.getByRole('combobox', { name: 'Card' }).click({ force: true });
    await page.locator('.ant-select-item-option', { hasText: 'Visa •••• 0341' }).click();
    await topUp.getByRole('button', { name: 'Pay $20.00' }).click();
    await expect(topUp.getByRole('status', { name: 'Card payment' })).toContainText(
      'The payment did not go through: the card was declined. Nothing was charged.',
      { timeout: 30_000 },
    );
    expect(await walletCents(page)).toBe(startCents + 1234);
    await page.goto('/rpc/billings');
    await expect(purchaseCount).toHaveText(purchasesAfterBuying);
  });

  expect(cspViolations).toEqual([]);
});

test('a card that asks for 3-D Secure is authenticated in the browser, then credited', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const cspViolations = watchCsp(page);
  await installFakeStripe(page, E2E.stripeApiBase);
  await registerConfirmAndSignIn(page, 'e2e-cards-3ds');
  await page.goto('/rpc/billings');
  const dialog = await addCard(page, '4000002500003155');
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('region', { name: 'Payment cards' }).getByText('Visa •••• 3155'),
  ).toBeVisible();

  const startCents = await walletCents(page);
  const topUp = page.getByRole('region', { name: 'Top up by card' });
  await topUp.getByLabel('Amount (USD)').fill('5');
  await topUp.getByRole('button', { name: 'Pay $5.00' }).click();
  await expect(topUp.getByRole('status', { name: 'Card payment' })).toContainText(
    'Paid $5.00 by card. Your wallet is credited with $5.00.',
    { timeout: 30_000 },
  );
  await expect(page.getByText(/^Wallet balance: \$/)).toHaveText(
    new RegExp(`^Wallet balance: ${escapeRegExp(usd(startCents + 500))}\\.`),
  );
  expect(cspViolations).toEqual([]);
});
