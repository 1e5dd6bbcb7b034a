// Session issues: a reload or a link followed while a dashboard page loads keeps the user signed in (item 1);
// a failed sign-in's popup is gone once the next sign-in succeeds (item 2); a /zh URL leaves the account's
// language alone (item 4).
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { ERROR_CATALOGUE, ERROR_CODES } from '../packages/contract/src/errors';
import { callApi } from './fixtures/account';
import type { TSeededUser } from './fixtures/session';
import {
  DASHBOARD_ROUTES,
  LANGUAGES,
  SHARED_USER,
  expectSignedIn,
  seedSignedInUser,
  tokenCookie,
  useSessionToken,
} from './fixtures/session';

/** Moments after the navigation starts at which the page is reloaded (the report saw it at 1.0–1.5 s). */
const RELOAD_AFTER_MS = [0, 200, 500, 1000, 1500];
/** The profile answer is held back this long, so the restore call is in flight whenever the page goes. */
const PROFILE_DELAY_MS = 1200;

let user: TSeededUser;

/**
 * Every dashboard route in both languages. English reloads each route at every moment; Chinese (where only the
 * /zh prefix differs for the restore and the redirect) reloads each route at two: one of the early moments and one
 * in the reported 1.0–1.5 s window, taken in turn, so across its 11 routes each moment is tried at least 3 times
 * and the suite stays within its time budget on a two-core machine (each English route takes ~8–16 s).
 */
function reloadMomentsFor(code: 'en' | 'zh', routeIndex: number): number[] {
  if (code === 'en') return RELOAD_AFTER_MS;
  const early = RELOAD_AFTER_MS.filter((ms) => ms < 1000);
  const late = RELOAD_AFTER_MS.filter((ms) => ms >= 1000);
  return [early[routeIndex % early.length]!, late[routeIndex % late.length]!];
}

test.beforeAll(async () => {
  user = await seedSignedInUser(SHARED_USER);
});

/** Slows the session-restore call down as a slow network would; the rest of the API answers at once. */
async function slowProfile(page: Page): Promise<void> {
  await page.route('**/api', async (route) => {
    const body = route.request().postDataJSON() as { method?: string } | null;
    if (body?.method === 'hub_getUserProfile') {
      await new Promise((resolve) => setTimeout(resolve, PROFILE_DELAY_MS));
    }
    // The page may have gone meanwhile (that is the point); its request is then no longer ours to answer.
    await route.continue().catch(() => undefined);
  });
}

/**
 * Reloads at once, as F5 would. Chromium refuses a reload for the instant between a navigation's commit and
 * the new document being attached ("Not attached to an active page"); a key press would wait the same instant.
 */
async function reloadNow(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.reload({ waitUntil: 'commit' });
      return;
    } catch (error) {
      if (attempt >= 5 || !/Not attached to an active page/.test(String(error))) throw error;
      await page.waitForTimeout(20);
    }
  }
}

test.describe('a reload while a dashboard page loads keeps the session (item 1)', () => {
  for (const { code, prefix } of LANGUAGES) {
    DASHBOARD_ROUTES.forEach((route, index) => {
      const url = `${prefix}${route}`;
      const moments = reloadMomentsFor(code, index);
      test(`${code} ${route} (reloads at ${moments.join(', ')} ms)`, async ({ page, context }) => {
        await useSessionToken(context, user.token);
        await slowProfile(page);
        for (const delay of moments) {
          await page.goto(url, { waitUntil: 'commit' });
          await page.waitForTimeout(delay);
          await reloadNow(page);
          await expectSignedIn(page, url);
          expect(await tokenCookie(context), `token after a reload ${delay} ms in`).toBe(
            user.token,
          );
        }
        // Following a link away mid-load is the same unload as a reload.
        await page.goto(url, { waitUntil: 'commit' });
        await page.waitForTimeout(1000);
        await page.goto(`${prefix}/rpc/profile`, { waitUntil: 'commit' });
        await expectSignedIn(page, `${prefix}/rpc/profile`);
        expect(await tokenCookie(context)).toBe(user.token);
      });
    });
  }
});

const SIGN_IN_FORM = {
  en: { email: 'Email', password: 'Password', submit: 'Sign in' },
  zh: { email: '邮箱', password: '密码', submit: '登录' },
} as const;
const WRONG_CREDENTIALS = ERROR_CATALOGUE[ERROR_CODES.BAD_CREDENTIALS];
/** Well under the 5 s the popup would stay (SPEC §9) if it were not closed on sign-in. */
const GONE_WITHIN_MS = 1000;

/**
 * The popup saying `text`, unless it is on its way out: a closed popup fades before it leaves the DOM, and on
 * a busy page that can take longer than the moment checked here.
 */
function shownPopup(page: Page, text: string) {
  return page
    .locator('.ant-message-notice-wrapper:not(.ant-message-move-up-leave)')
    .getByText(text);
}

async function submitSignIn(page: Page, lang: 'en' | 'zh', email: string, password: string) {
  const form = SIGN_IN_FORM[lang];
  await page.getByLabel(form.email).fill(email);
  await page.getByLabel(form.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: form.submit, exact: true }).click();
}

test.describe('the wrong-password popup does not follow into the dashboard (item 2)', () => {
  for (const { code, prefix } of LANGUAGES) {
    const wrong = WRONG_CREDENTIALS[code];

    test(`${code}: against the API`, async ({ page }) => {
      await page.goto(`${prefix}/`);
      await submitSignIn(page, code, user.email, 'not the password');
      const popup = shownPopup(page, wrong);
      await expect(popup).toBeVisible();
      await submitSignIn(page, code, user.email, user.password);
      await expectSignedIn(page, `${prefix}/rpc/endpoint`);
      await expect(popup).toHaveCount(0, { timeout: GONE_WITHIN_MS });
    });

    // Every dashboard route as the place sign-in returns to (?redirect=). hub_login is answered here, as the
    // API answered above, so forty-four more sign-ins stay clear of its per-IP throttle; the rest is real.
    for (const route of DASHBOARD_ROUTES) {
      test(`${code}: signing in to ${route}`, async ({ page }) => {
        let attempts = 0;
        await page.route('**/api', async (request) => {
          const body = request.request().postDataJSON() as { method?: string } | null;
          if (body?.method !== 'hub_login') return request.continue();
          attempts += 1;
          const answer =
            attempts === 1
              ? {
                  id: 1,
                  error: {
                    code: ERROR_CODES.BAD_CREDENTIALS,
                    message: WRONG_CREDENTIALS.en,
                    messageZh: WRONG_CREDENTIALS.zh,
                  },
                }
              : { id: 1, result: { token: user.token, expiresAt: Date.now() + 86_400_000 } };
          return request.fulfill({ json: answer });
        });
        await page.goto(`${prefix}/?redirect=${encodeURIComponent(route)}`);
        await submitSignIn(page, code, user.email, 'not the password');
        const popup = shownPopup(page, wrong);
        await expect(popup).toBeVisible();
        await submitSignIn(page, code, user.email, user.password);
        await expectSignedIn(page, `${prefix}${route}`);
        await expect(popup).toHaveCount(0, { timeout: GONE_WITHIN_MS });
      });
    }
  }
});

test('a /zh URL leaves the account language alone; only the switch changes it (item 4)', async ({
  page,
  context,
}) => {
  const language = async () =>
    (await callApi('hub_getUserProfile', {}, user.token)).result?.language;
  expect(await language()).toBe('en');

  // Signed in, opening Chinese pages.
  await useSessionToken(context, user.token);
  await page.goto('/zh/rpc/profile');
  await expectSignedIn(page, '/zh/rpc/profile');
  await page.goto('/zh/rpc/endpoint');
  await expectSignedIn(page, '/zh/rpc/endpoint');
  expect(await language()).toBe('en');

  // Signing in on a Chinese page, with no language cookie from an earlier switch.
  await context.clearCookies();
  await page.goto('/zh/');
  await submitSignIn(page, 'zh', user.email, user.password);
  await expectSignedIn(page, '/zh/rpc/endpoint');
  expect(await language()).toBe('en');

  // The explicit switch does change it, both ways.
  await page.goto('/rpc/endpoint');
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: '中文' }).click();
  await expectSignedIn(page, '/zh/rpc/endpoint');
  await expect.poll(language).toBe('zh');
  await page.getByRole('button', { name: '语言' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expectSignedIn(page, '/rpc/endpoint');
  await expect.poll(language).toBe('en');
});
