// Accessibility (item 12): axe finds no serious or critical WCAG 2.2 AA violation on any route, in either language,
// every page has an h1, and no antd icon exposes its English file name as its label (item 3).
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './fixtures/axe';
import type { TSeededUser } from './fixtures/session';
import {
  DASHBOARD_ROUTES,
  LANGUAGES,
  SHARED_USER,
  seedSignedInUser,
  useSessionToken,
} from './fixtures/session';

const CODE = '0'.repeat(43);

/** Public pages, opened signed out. Codes are well-formed but unknown, so each page shows its outcome. */
const PUBLIC_ROUTES = [
  '/',
  '/register',
  '/register-confirm',
  '/register-confirm?email=ada%40example.com',
  '/activate-account',
  `/activate-account?code=${CODE}`,
  '/reset-password',
  '/reset-password/checking',
  `/reset-password/checking?code=${CODE}`,
  '/reset-password/set',
  `/reset-password/set?code=${CODE}`,
  '/set-password/checking',
  `/set-password/set?code=${CODE}`,
  '/third-party/login',
  '/auth/callback',
  '/bind/callback',
  '/invite-member',
  '/invoice/unknown-code',
  '/404',
  '/no/such/page',
];

/**
 * Pages that need a signed-in user besides the dashboard (signed out, the guard sends them to sign-in, which is
 * covered above). /first-login is left out: an e-mail account is initialised, so it goes on to /rpc/endpoint.
 */
const SIGNED_IN_ROUTES = [
  ...DASHBOARD_ROUTES,
  '/rpc/notifications',
  '/choose-team',
  `/email-confirm?code=${CODE}`,
  '/login',
  '/workbench/anything',
];

let user: TSeededUser;

test.beforeAll(async () => {
  user = await seedSignedInUser(SHARED_USER);
});

/** Opens `route` in the language of `prefix` and checks the guard left the user there. */
async function openAt(page: Page, prefix: string, route: string): Promise<void> {
  const url = route === '/' && prefix ? prefix : `${prefix}${route}`;
  const path = url.replace(/\?.*$/, '');
  await page.goto(url);
  await expect(page).toHaveURL((url) => url.pathname === path);
}

/** Waits until the page has rendered its content: an h1, no spinner, the network quiet. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('h1').first()).toBeVisible();
}

/** antd icons still exposing their English file name ("close", "down") as their label (item 3). */
function englishIconLabels(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('span.anticon[aria-label]'))
      .filter((icon) => icon.getAttribute('aria-hidden') !== 'true')
      .filter((icon) => icon.classList.contains(`anticon-${icon.getAttribute('aria-label')}`))
      .map((icon) => icon.outerHTML.slice(0, 120)),
  );
}

async function expectAccessible(page: Page): Promise<void> {
  await settle(page);
  expect(await seriousViolations(page)).toEqual([]);
  expect(await englishIconLabels(page)).toEqual([]);
}

for (const { code, prefix } of LANGUAGES) {
  test.describe(`axe, ${code}`, () => {
    for (const route of PUBLIC_ROUTES) {
      test(`public ${route}`, async ({ page }) => {
        await openAt(page, prefix, route);
        await expectAccessible(page);
      });
    }
    for (const route of SIGNED_IN_ROUTES) {
      test(`signed in ${route}`, async ({ page, context }) => {
        await useSessionToken(context, user.token);
        await openAt(page, prefix, route);
        await expectAccessible(page);
      });
    }
  });
}

test.describe('the not-found page speaks the page language (item 3)', () => {
  for (const [prefix, text] of [
    ['', 'Page Not Found: /no/such/page?x=1'],
    ['/zh', '页面未找到：/zh/no/such/page?x=1'],
  ] as const) {
    test(prefix || '/', async ({ page }) => {
      await page.goto(`${prefix}/no/such/page?x=1`);
      await expect(page.getByText(text, { exact: true })).toBeVisible();
      if (prefix) await expect(page.getByText(/Page Not Found/)).toHaveCount(0);
    });
  }
});
