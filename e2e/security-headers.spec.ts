// Issue 9 proof: the built app runs under the console's Content-Security-Policy with no violation, through
// sign-up confirmation, sign-in, the endpoint, overview and statistic pages (charts) and a live notice over the socket.
import { expect, test, type Page } from '@playwright/test';
import { callApi, registerConfirmAndSignIn } from './fixtures/account';

/** Where the page's own listener keeps what it saw. */
type TWatchedWindow = { cspViolations?: string[] };

/** Collects CSP violations two ways: the DOM event, and what Chromium writes to the console. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text())) seen.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (/content security policy|unsafe-eval/i.test(error.message)) seen.push(error.message);
  });
  return seen;
}

test('the console runs under its CSP without a single violation', async ({ page, context }) => {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      ((window as TWatchedWindow).cspViolations ??= []).push(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
  const consoleViolations = watchViolations(page);
  const eventViolations: string[] = [];
  const collectEvents = async () => {
    eventViolations.push(
      ...(await page.evaluate(() => (window as TWatchedWindow).cspViolations ?? [])),
    );
  };

  const shell = await page.goto('/');
  const csp = shell?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(shell?.headers()['x-content-type-options']).toBe('nosniff');

  await registerConfirmAndSignIn(page, 'e2e-csp');
  await expect(page.getByRole('button', { name: 'Notifications' })).toBeVisible();
  await collectEvents();

  for (const route of ['/rpc', '/rpc/statistic']) {
    await page.goto(route);
    await expect(page.getByRole('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await collectEvents();
  }

  // The notice socket connects under connect-src: a notice raised on the server pops up.
  await page.goto('/rpc/notifications');
  await expect(page.getByRole('list', { name: 'Notifications', exact: true })).toBeVisible();
  const token = (await context.cookies()).find((c) => c.name === 'token')?.value;
  const created = await callApi('hub_generateApiKey', { name: 'csp' }, token);
  await callApi('hub_deleteApiKey', { keyId: created.result?.keyId as string }, token);
  await expect(
    page.locator('.ant-notification-topLeft').getByText('API key deleted'),
  ).toBeVisible();
  await collectEvents();

  expect(eventViolations).toEqual([]);
  expect(consoleViolations).toEqual([]);
});
