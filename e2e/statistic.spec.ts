// Issue 4 proof: requests sent in the test through the gateway show on /rpc/statistic, and switching the range
// and the interval redraws the chart.
import { expect, test } from '@playwright/test';
import { callApi, registerConfirmAndSignIn } from './fixtures/account';
import { E2E } from './fixtures/env';

test('statistics: the requests sent in the test are counted, and range and interval redraw the chart', async ({
  page,
  context,
}) => {
  await registerConfirmAndSignIn(page, 'e2e-stats');
  const token = (await context.cookies()).find((c) => c.name === 'token')?.value;
  expect(token).toBeTruthy();
  const created = await callApi('hub_generateApiKey', { name: 'stats key' }, token);
  const key = created.result?.key as string;
  expect(key).toBeTruthy();

  // Seven calls through the gateway to the Hardhat localnet, as a user's app would make them.
  const methods = ['eth_blockNumber', 'eth_blockNumber', 'eth_blockNumber', 'eth_chainId'];
  methods.push('eth_chainId', 'net_version', 'eth_gasPrice');
  for (const [i, method] of methods.entries()) {
    const response = await fetch(`http://localhost:${E2E.gatewayPort}/v1/localnet/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method, params: [] }),
    });
    expect(response.status).toBe(200);
  }

  // The gateway flushes usage every few seconds; wait until the console API counts all seven.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  await expect(async () => {
    const now = Date.now();
    const answer = await callApi(
      'hub_reportUserCompositeInfo',
      { from: now - 3_600_000, to: now, bucket: 'minute', timeZone },
      token,
    );
    expect(answer.result?.requests).toBe(methods.length);
  }).toPass({ timeout: 20_000, intervals: [1000, 2000] });

  await page.goto('/rpc/statistic');
  // antd hides the radio inputs behind their labels: click the label, as a user does.
  const pickRange = async (name: string) => {
    const radio = page.getByRole('radio', { name, exact: true });
    await page.locator('label').filter({ has: radio }).click();
    await expect(radio).toBeChecked();
  };
  await pickRange('Last hour');
  const chart = page.getByRole('img', { name: /over time/ });
  await expect(chart).toHaveAttribute('data-bucket', 'minute');

  const byKey = page.getByRole('table', { name: 'Usage by API key' });
  const keyRow = byKey.getByRole('row').filter({ hasText: 'stats key' });
  await expect(keyRow).toBeVisible();
  const headers = await byKey.getByRole('columnheader').allTextContents();
  const requestsColumn = headers.findIndex((h) => h.trim() === 'Requests');
  expect(requestsColumn).toBeGreaterThan(-1);
  await expect(keyRow.getByRole('cell').nth(requestsColumn)).toHaveText('7');

  // A longer range picks hourly buckets; asking for minutes over 24 hours redraws with many more points.
  await pickRange('Last 24 hours');
  await expect(chart).toHaveAttribute('data-bucket', 'hour');
  const hourly = Number(await chart.getAttribute('data-points'));
  expect(hourly).toBeGreaterThanOrEqual(24);
  // Open the interval select from the keyboard (its text covers the input for a mouse).
  await page.getByRole('combobox', { name: 'Interval' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('option', { name: 'By minute' }).click();
  await expect(chart).toHaveAttribute('data-bucket', 'minute');
  await expect(chart).not.toHaveAttribute('data-points', String(hourly));
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(hourly);

  // In Chinese, antd's own texts follow too (the built app once fell back to English: "5 / page").
  await page.goto('/zh/rpc/statistic');
  await expect(page.getByText('5 条/页').first()).toBeVisible();
});
