// Issue 16 proof (API reference and code examples): the guide's examples carry the user's own key URL, and the
// curl example's request answers through the running gateway; the console API reference, read from rpc.discover,
// documents hub_generateApiKey with its params and permission, and deep-links to it. Both pages pass axe.
import { expect, test } from '@playwright/test';
import { callApi } from './fixtures/account';
import { seriousViolations } from './fixtures/axe';
import { E2E } from './fixtures/env';
import { seedSignedInUser, useSessionToken } from './fixtures/session';

test('code examples with the user’s endpoint, and the API reference from rpc.discover', async ({
  page,
  context,
}) => {
  // rpc.discover needs no session: tools can load the document as the page does.
  const discovered = await callApi('rpc.discover', {});
  expect(discovered.result?.methods).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'hub_generateApiKey' })]),
  );

  const user = await seedSignedInUser('e2e-api-reference');
  await useSessionToken(context, user.token);
  const created = await callApi(
    'hub_generateApiKey',
    { name: `ref key ${Date.now()}` },
    user.token,
  );
  const key = created.result?.key as string;
  expect(key).toBeTruthy();
  const url = `http://localhost:${E2E.gatewayPort}/v1/localnet/${key}`;

  // The guide's examples are filled with the user's own key (the newest is chosen first).
  await page.goto('/rpc/endpoint?tab=guide');
  const examples = page.getByRole('group', { name: 'Code examples' });
  await examples.getByRole('tab', { name: 'viem' }).click();
  await expect(examples.getByRole('group', { name: 'Example request (viem)' })).toContainText(
    `transport: http('${url}')`,
  );
  await expect(examples.getByRole('group', { name: 'WebSocket example (viem)' })).toContainText(
    `webSocket('ws://localhost:${E2E.gatewayPort}/v1/localnet/${key}')`,
  );
  expect(await seriousViolations(page)).toEqual([]);

  // The curl example's URL and body, sent as curl would send them, answer through the gateway.
  await examples.getByRole('tab', { name: 'curl' }).click();
  const curl =
    (await examples.getByRole('group', { name: 'Example request (curl)' }).textContent()) ?? '';
  const [, curlUrl] = /curl -X POST '([^']+)'/.exec(curl) ?? [];
  const [, curlBody] = /--data '([^']+)'/.exec(curl) ?? [];
  expect(curlUrl).toBe(url);
  const response = await fetch(curlUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: curlBody!,
  });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { result?: string }).result).toMatch(/^0x[0-9a-f]+$/);

  // From the guide to the reference; the sidebar marks it as the current page.
  await page.getByRole('link', { name: 'Open the console API reference' }).click();
  await expect(page).toHaveURL(/\/rpc\/api-reference$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Console API reference' }),
  ).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'API reference' }),
  ).toHaveAttribute('aria-current', 'page');

  await page.getByRole('searchbox', { name: 'Search methods' }).fill('generateApiKey');
  await expect(page.getByRole('status').filter({ hasText: /^1 method$/ })).toBeVisible();
  const method = page.getByRole('article', { name: 'hub_generateApiKey' });
  await expect(method).toBeVisible();
  const params = method
    .getByRole('heading', { name: 'Parameters' })
    .locator('xpath=following-sibling::*[1]');
  await expect(params.getByRole('listitem').filter({ hasText: 'name' })).toContainText(
    /required\s*string · at least 1 character · at most 40 characters/,
  );
  await expect(method).toContainText('creates, changes and deletes API keys');
  await expect(method.getByRole('group', { name: /Example request body/ })).toContainText(
    '"method": "hub_generateApiKey"',
  );
  expect(await seriousViolations(page)).toEqual([]);

  // A link to the method opens the page at it, with focus there.
  await page.goto('/rpc/api-reference#hub_generateApiKey');
  const target = page.locator('#hub_generateApiKey');
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport();
});
