// Dedicated nodes as a buyer walks them (SPEC §2, §3, §7): a new user with wallet money orders a localnet node
// through the wizard at the catalogue's price, watches it come online (the lifecycle sweep and the local driver's
// real Hardhat node of the `npm start` under test), copies its endpoint, reads its history and renews it; then
// buys a second node by card with the fake Stripe's test card.
import { expect, test, type Page } from '@playwright/test';
import { dnPriceCents } from '../packages/contract/src/dedicated-nodes/schemas';
import { callApi } from './fixtures/account';
import { seriousViolations } from './fixtures/axe';
import { E2E } from './fixtures/env';
import { installFakeStripe } from './fixtures/fake-stripe-js';
import { seedSignedInUser, useSessionToken } from './fixtures/session';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const USER = 'e2e-dn';
/** Hardhat's first test account: funded and unlocked on the local node, so it can send without a key here. */
const HARDHAT_ACCOUNT_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const FULL_NODE = 'Localnet (Hardhat) Full node · This server';
const ARCHIVE_NODE = 'Localnet (Hardhat) Archive node · This server';

async function chain(method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(E2E.localnetUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** 123456 → "$1,234.56", as the console writes it in English */
function usd(cents: number): string {
  const whole = Math.trunc(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** "$1,234.56" (the first amount in the text) → 123456 */
function cents(text: string): number {
  const match = /\$([\d,]+)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in "${text}"`);
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number(match[2]);
}

/** The wallet balance the top-up page shows, in cents. */
async function walletCents(page: Page): Promise<number> {
  await page.goto('/rpc/billings/charge');
  const line = page.getByText(/^Wallet balance: \$/);
  await expect(line).toBeVisible();
  return cents((await line.textContent()) ?? '');
}

/** What one month of a localnet node costs, from the catalogue the server charges by. */
async function catalogueCents(token: string, nodeType: 'full' | 'archive'): Promise<number> {
  const sku = (await callApi('hub_getDnSku', {}, token)).result as {
    chains: { id: string; nodeTypes: { type: string; monthlyCents: number }[] }[];
    periods: { months: number; discountPercent: number }[];
  };
  const monthly = sku.chains
    .find((c) => c.id === 'localnet')!
    .nodeTypes.find((n) => n.type === nodeType)!.monthlyCents;
  const oneMonth = sku.periods.find((p) => p.months === 1)!;
  return dnPriceCents(monthly, 1, oneMonth.discountPercent);
}

/** Answers one wizard step: its heading, the option, Next. */
async function chooseStep(page: Page, heading: string, option: RegExp | string) {
  await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  const radio = page.getByRole('radio', { name: option });
  // antd draws its own circle over the input: the click lands on the label, as a user's does.
  await radio.check({ force: true });
  await expect(radio).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** Walks the wizard to "Review and pay" for one month of a localnet node of `type`, checking the prices shown. */
async function walkWizard(page: Page, type: 'Full node' | 'Archive node', monthlyCents: number) {
  await chooseStep(page, 'Step 1 of 5: Chain', /^Localnet \(Hardhat\) · from \$/);
  await chooseStep(
    page,
    'Step 2 of 5: Node type',
    new RegExp(`^${type} · \\${usd(monthlyCents)} / month`),
  );
  // The chain runs in one region only: it is chosen already.
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 5: Region' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'This server' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseStep(page, 'Step 4 of 5: Period', new RegExp(`^1 month · \\${usd(monthlyCents)}$`));
  await expect(
    page.getByRole('heading', { level: 2, name: 'Step 5 of 5: Review and pay' }),
  ).toBeVisible();
}

/** No serious axe violation on the page as it stands (a notice popping over it included). */
async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The list's row of the node on localnet of `type` (the node just bought is marked "New"). */
function nodeRow(page: Page, type: 'Full node' | 'Archive node') {
  return page
    .getByRole('region', { name: 'Dedicated nodes' })
    .getByRole('row')
    .filter({ hasText: 'Localnet (Hardhat)' })
    .filter({ hasText: type });
}

test('order a node from the wallet, see it come online, copy its endpoint, read its history, renew it', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const user = await seedSignedInUser(USER);
  await useSessionToken(context, user.token);
  const priceCents = await catalogueCents(user.token, 'full');

  await test.step('the wallet is funded by a deposit on the local chain', async () => {
    await page.goto('/rpc/billings/charge');
    const address = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // 0.01 ETH at the local chain's rate ($3,000 per ETH) is $30.00; two more blocks confirm it.
    await chain('eth_sendTransaction', [
      { from: HARDHAT_ACCOUNT_0, to: address, value: `0x${(10n ** 16n).toString(16)}` },
    ]);
    await chain('evm_mine', []);
    await chain('evm_mine', []);
    await expect(page.getByText('Deposit received').first()).toBeVisible({ timeout: 30_000 });
  });
  const startCents = await walletCents(page);
  expect(startCents).toBeGreaterThanOrEqual(2 * priceCents);

  await test.step('no nodes yet: the list says so and leads to the wizard', async () => {
    await page.goto('/rpc/dedicated-node');
    await expect(page.getByRole('heading', { level: 1, name: 'Dedicated nodes' })).toBeVisible();
    await expect(page.getByText('You have no dedicated nodes yet.')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Order your first node' }).click();
    await expect(page).toHaveURL(/\/rpc\/dedicated-node\/new$/);
  });

  await test.step('the wizard shows the catalogue price and pays it from the wallet', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'New dedicated node' })).toBeVisible();
    await expectAccessible(page);
    await walkWizard(page, 'Full node', priceCents);
    const summary = (label: string) => page.getByRole('row').filter({ hasText: label });
    await expect(summary('Chain')).toContainText('Localnet (Hardhat)');
    await expect(summary('Node type')).toContainText('Full node');
    await expect(summary('Region')).toContainText('This server');
    const total = page.getByRole('row').filter({ hasText: 'You pay' });
    await expect(total).toContainText(usd(priceCents));
    await expect(
      page.getByRole('group', { name: 'Pay with' }).getByRole('radio', { name: 'Wallet balance' }),
    ).toBeChecked();
    await expectAccessible(page);
    await page.getByRole('button', { name: `Pay ${usd(priceCents)}` }).click();
    await expect(page).toHaveURL(/\/rpc\/dedicated-node\?created=[0-9a-f-]{36}$/);
    await expect(page.getByText(/Your node is ordered and paid/)).toBeVisible();
  });

  const row = nodeRow(page, 'Full node');

  await test.step('the node is pending, then online within about a minute', async () => {
    await expect(row).toHaveCount(1);
    await expect(row.getByText('New', { exact: true })).toBeVisible();
    // Pending unless the sweep was quicker than this page.
    await expect(row.getByText(/^(Pending|Online)$/)).toBeVisible();
    // The list asks again every 15 s while a node is pending; the sweep provisions it every 15 s.
    await expect(row.getByText('Online', { exact: true })).toBeVisible({ timeout: 75_000 });
    await expectAccessible(page);
  });

  await test.step('its endpoint is shown and copied', async () => {
    const url = (await row.locator('.dn-endpoint-url').first().textContent())?.trim() ?? '';
    expect(url).toMatch(/^https?:\/\/[^/]+\/.*\{key\}$/);
    await row.getByRole('button', { name: 'Copy HTTP URL' }).click();
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  });

  await test.step('its history says it was ordered and came online', async () => {
    await row.getByRole('button', { name: `Show status history of ${FULL_NODE}` }).click();
    const history = page.getByRole('region', { name: 'Status history' });
    await expect(history.getByRole('listitem').first()).toContainText('PendingOrdered');
    await expect(
      history.getByRole('listitem').filter({ hasText: 'Set up and answering' }),
    ).toHaveCount(1);
    await row.getByRole('button', { name: `Hide status history of ${FULL_NODE}` }).click();
  });

  await test.step('renewed for a month from the list: the new expiry is shown', async () => {
    await row.getByRole('button', { name: `Renew ${FULL_NODE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Renew ${FULL_NODE}` });
    await expect(dialog.getByRole('radio', { name: '1 month' })).toBeChecked();
    const after = dialog.getByRole('row').filter({ hasText: 'Expires after renewal' });
    const expiresAfter = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.exec(
      (await after.textContent()) ?? '',
    )![0];
    await expect(dialog.getByRole('row').filter({ hasText: 'You pay' })).toContainText(
      usd(priceCents),
    );
    await dialog.getByRole('button', { name: `Pay ${usd(priceCents)}` }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`${FULL_NODE} is renewed.`)).toBeVisible();
    await expect(row).toContainText(expiresAfter);
  });

  expect(await walletCents(page)).toBe(startCents - 2 * priceCents);
});

test('buy a second node by card with the fake Stripe test card', async ({ page, context }) => {
  test.setTimeout(180_000);
  await installFakeStripe(page, E2E.stripeApiBase);
  const user = await seedSignedInUser(USER);
  await useSessionToken(context, user.token);
  const priceCents = await catalogueCents(user.token, 'archive');

  await test.step('a card is saved', async () => {
    await page.goto('/rpc/billings');
    const cards = page.getByRole('region', { name: 'Payment cards' });
    await cards.getByRole('button', { name: 'Add card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a card' });
    await dialog.getByLabel('Card number').fill('4242424242424242');
    await dialog.getByLabel('Expiry').fill('12 / 34');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect(dialog).toBeHidden();
    await expect(cards.getByText('Visa •••• 4242')).toBeVisible();
  });
  const startCents = await walletCents(page);

  await test.step('the wizard pays by card and opens the list at the new node', async () => {
    await page.goto('/rpc/dedicated-node/new');
    await walkWizard(page, 'Archive node', priceCents);
    await page
      .getByRole('group', { name: 'Pay with' })
      .getByRole('radio', { name: 'Card' })
      .check({ force: true });
    await expect(page.getByText('Visa ending 4242 (default)')).toBeVisible();
    await page.getByRole('button', { name: `Pay ${usd(priceCents)}` }).click();
    await expect(page).toHaveURL(/\/rpc\/dedicated-node\?created=[0-9a-f-]{36}$/, {
      timeout: 30_000,
    });
    await expect(page.getByText(/Your node is ordered and paid/)).toBeVisible();
    const row = nodeRow(page, 'Archive node');
    await expect(row.getByText('New', { exact: true })).toBeVisible();
    await expect(row.getByText(/^(Pending|Online)$/)).toBeVisible();
    await expect(row.getByRole('button', { name: `Renew ${ARCHIVE_NODE}` })).toBeEnabled();
  });

  // The card paid: the wallet is as it was.
  expect(await walletCents(page)).toBe(startCents);
});
