// The money path as a new user walks it: a deposit on the local chain, its notice, a package bought from the
// wallet, and the RUs and the rate-limit tier that come with it.
import { expect, test } from '@playwright/test';
import { E2E } from './fixtures/env';
import { seedSignedInUser, useSessionToken } from './fixtures/session';

/** Hardhat's first test account: funded and unlocked on the local node, so it can send without a key here. */
const HARDHAT_ACCOUNT_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

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

test('deposit on the local chain, see the notice, buy a package, get its RUs and tier', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const user = await seedSignedInUser('e2e-billing');
  await useSessionToken(context, user.token);

  await page.goto('/rpc/billings/charge');
  await expect(page.getByRole('heading', { name: 'Deposit crypto' })).toBeVisible();
  const address = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // 0.02 ETH at the local chain's rate ($3,000 per ETH) is $60.00; two more blocks confirm it.
  await chain('eth_sendTransaction', [
    { from: HARDHAT_ACCOUNT_0, to: address, value: `0x${(2n * 10n ** 16n).toString(16)}` },
  ]);
  await chain('evm_mine', []);
  await chain('evm_mine', []);
  await expect(page.getByText('Deposit received').first()).toBeVisible({ timeout: 30_000 });

  await page.goto('/rpc/billings');
  const wallet = page.getByRole('region', { name: 'Wallet' });
  await expect(wallet.getByText('$60.00')).toBeVisible();
  const tier = wallet.locator('.ant-statistic', { hasText: 'Rate-limit tier' });
  await expect(tier).toContainText('Free');

  await page.getByRole('button', { name: 'Buy 100M RUs' }).click();
  const dialog = page.getByRole('dialog', { name: /Confirm purchase/ });
  await expect(dialog.getByText('$49.00').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Pay $49.00' }).click();
  await expect(page.getByText('100M RUs is yours. Its RUs are ready to use.')).toBeVisible();

  await expect(wallet.getByText('$11.00')).toBeVisible();
  await expect(tier).toContainText('Elementary');
  await expect(wallet.getByText('101,000,000').first()).toBeVisible();
  // The tier reached the gateway's view of the account too: the limit info says so.
  await page.goto('/rpc');
  await expect(page.getByText(/Elementary/).first()).toBeVisible();
});
