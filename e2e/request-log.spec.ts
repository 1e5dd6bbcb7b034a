// Issue 16 proof (request log): calls made through the gateway, one refused and one the node answers with an
// error, show on /rpc/endpoint's "Request log" tab with their outcome and code; the outcome filter and the method
// search narrow the table; the tab passes axe.
import { expect, test } from '@playwright/test';
import { callApi } from './fixtures/account';
import { seriousViolations } from './fixtures/axe';
import { E2E } from './fixtures/env';
import { seedSignedInUser, useSessionToken } from './fixtures/session';

test('a key’s calls, refusals and errors show on the request log tab, filtered and searched', async ({
  page,
  context,
}) => {
  const user = await seedSignedInUser('e2e-request-log');
  await useSessionToken(context, user.token);
  const created = await callApi(
    'hub_generateApiKey',
    { name: `log key ${Date.now()}` },
    user.token,
  );
  const key = created.result?.key as string;
  const keyId = created.result?.keyId as string;
  expect(key).toBeTruthy();

  // Four calls as an app would make them: two answered, one the gateway refuses, one the node refuses.
  const url = `http://localhost:${E2E.gatewayPort}/v1/localnet/${key}`;
  const send = async (method: string, params: unknown[]) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  expect((await send('eth_blockNumber', [])).status).toBe(200);
  expect((await send('eth_chainId', [])).status).toBe(200);
  expect((await send('admin_peers', [])).status).toBe(400);
  const reverted = await send('eth_call', [
    { to: '0x0000000000000000000000000000000000000001', data: '0xzz' },
    'latest',
  ]);
  const nodeCode = (reverted.body.error as { code: number }).code;
  expect(typeof nodeCode).toBe('number');

  // The gateway writes its log every few seconds: wait until the API has all four.
  await expect(async () => {
    const answer = await callApi('hub_getApiKeyRequestLogs', { keyId }, user.token);
    expect(answer.result?.total).toBe(4);
  }).toPass({ timeout: 20_000, intervals: [1000, 2000] });

  await page.goto(`/rpc/endpoint?tab=logs&key=${keyId}`);
  await expect(page.getByRole('tab', { name: 'Request log', selected: true })).toBeVisible();
  const table = page.getByRole('region', { name: 'Request log' });
  const rowOf = (method: string) => table.getByRole('row').filter({ hasText: method });
  await expect(rowOf('eth_blockNumber')).toContainText('OK');
  await expect(rowOf('eth_chainId')).toContainText('OK');
  await expect(rowOf('admin_peers')).toContainText('Refused');
  await expect(rowOf('admin_peers')).toContainText('-32601');
  await expect(rowOf('eth_call')).toContainText('Node error');
  await expect(rowOf('eth_call')).toContainText(String(nodeCode));
  await expect(rowOf('eth_call')).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(page.getByText('4 requests')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Only what was refused. antd draws the chosen option over the combobox's input: the click lands on the
  // select, as a user's does.
  await page.getByRole('combobox', { name: 'Outcome' }).click({ force: true });
  await page.locator('.ant-select-item-option').filter({ hasText: 'Refused' }).click();
  await expect(page.getByText('1 request', { exact: true })).toBeVisible();
  await expect(rowOf('admin_peers')).toBeVisible();
  await expect(rowOf('eth_blockNumber')).toHaveCount(0);

  // Back to all outcomes, then a search by a part of the method, in any case.
  await page.getByRole('combobox', { name: 'Outcome' }).click({ force: true });
  await page.locator('.ant-select-item-option').filter({ hasText: 'All outcomes' }).click();
  await expect(page.getByText('4 requests')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search by method' }).fill('CHAIN');
  await page.getByRole('searchbox', { name: 'Search by method' }).press('Enter');
  await expect(page.getByText('1 request', { exact: true })).toBeVisible();
  await expect(rowOf('eth_chainId')).toBeVisible();

  // A new call appears on refresh.
  expect((await send('net_version', [])).status).toBe(200);
  await page.getByRole('searchbox', { name: 'Search by method' }).fill('');
  await page.getByRole('searchbox', { name: 'Search by method' }).press('Enter');
  await expect(async () => {
    await page.getByRole('button', { name: /Refresh/ }).click();
    await expect(page.getByText('5 requests')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000, intervals: [1000, 2000] });
  expect(await seriousViolations(page)).toEqual([]);
});
