// Issue 3 proof: a new user creates a key on /rpc/endpoint, copies its localnet URL, calls it, and sees the
// request counted in "Requests today" once the gateway has flushed its usage.
import { expect, test } from '@playwright/test';
import { registerConfirmAndSignIn } from './fixtures/account';
import { E2E } from './fixtures/env';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a new user creates a key, calls its localnet URL and sees the request counted', async ({
  page,
}) => {
  await registerConfirmAndSignIn(page, 'e2e-keys');

  // Create a key.
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill('e2e key');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'e2e key' }) });
  await expect(row).toBeVisible();

  // Copy its localnet HTTPS URL from the detail drawer.
  await row.getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: 'Copy HTTPS URL' });
  await drawer.getByRole('button', { name: 'Copy HTTPS URL' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(new RegExp(`^http://localhost:${E2E.gatewayPort}/v1/localnet/\\S+$`));

  // Call it from the test (Node side), as a user's app would.
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result?: string };
  expect(body.result).toMatch(/^0x[0-9a-f]+$/);

  // The gateway flushes usage every few seconds: reload until the table counts the request.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  const headers = await page.getByRole('columnheader').allTextContents();
  const requestsColumn = headers.findIndex((h) => h.trim() === 'Requests today');
  expect(requestsColumn).toBeGreaterThan(-1);
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole('cell').nth(requestsColumn)).toHaveText('1', { timeout: 2000 });
  }).toPass({ timeout: 20_000, intervals: [1000, 2000] });
});
