// Issue 14 in the browser: a wallet (an EIP-1193 provider injected in Chromium, signing with a viem local account)
// signs up through /first-login; a password user binds that kind of wallet and an account at the local OpenID
// Connect provider, signs in with each, turns on two-factor sign-in and signs in with a code.
import { expect, test, type Frame, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { generatePrivateKey } from 'viem/accounts';
import { registerConfirmAndSignIn } from './fixtures/account';
import { seriousViolations } from './fixtures/axe';
import { E2E } from './fixtures/env';
import { injectWallet } from './fixtures/wallet';

const PROVIDER = 'Local ID';

async function signOut(page: Page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Clicks `start` and, on the provider's own pages, signs in as `subject` and consents until the provider sends the
 * browser back. A provider that remembers the browser answers with redirects alone: no page of its own shows.
 */
async function throughProvider(page: Page, subject: string, start: () => Promise<void>) {
  const provider = new URL(`http://127.0.0.1:${E2E.oidcPort}`).host;
  const atProvider = () => new URL(page.url()).host === provider;
  const seen: string[] = [];
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  };
  page.on('framenavigated', onNavigated);
  try {
    await start();
    await expect
      .poll(() =>
        seen.some((u) => new URL(u).host === provider || /\/(auth|bind)\/callback/.test(u)),
      )
      .toBe(true);
    for (let step = 0; step < 6 && atProvider(); step += 1) {
      const submit = page.locator('button[type="submit"]').first();
      await submit.waitFor();
      const login = page.locator('input[name="login"]');
      if (await login.isVisible()) {
        await login.fill(subject);
        await page.locator('input[name="password"]').fill('any password');
      }
      // The login form, then the consent form; each answer is a navigation (redirects until the callback).
      await Promise.all([page.waitForNavigation(), submit.click()]);
      await page.waitForLoadState('domcontentloaded');
    }
    if (atProvider()) throw new Error('the provider did not send the browser back');
  } finally {
    page.off('framenavigated', onNavigated);
  }
}

test('a new wallet signs in, accepts the terms on /first-login and lands in the console', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const wallet = await injectWallet(context, generatePrivateKey());
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page).toHaveURL(/\/first-login$/);
  // The wallet was asked to sign one SIWE message naming this console and its own address.
  expect(wallet.signRequests).toHaveLength(1);
  const [data, from] = wallet.signRequests[0]!;
  const message = Buffer.from(data.slice(2), 'hex').toString('utf8');
  expect(message).toContain(
    `${new URL(E2E.consoleUrl).host} wants you to sign in with your Ethereum account:`,
  );
  expect(message).toContain(wallet.account.address);
  expect(from.toLowerCase()).toBe(wallet.account.address.toLowerCase());
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/rpc\/endpoint$/);
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
  await context.close();
});

test('binds a wallet and a provider to one account, signs in with each, then with a two-factor code', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  await injectWallet(context, generatePrivateKey());
  const page = await context.newPage();
  const email = await registerConfirmAndSignIn(page, 'sign-in');
  const subject = `e2e-${Date.now()}`;

  // Bind the wallet and the provider from the profile.
  await page.goto('/rpc/profile');
  await page.getByRole('button', { name: 'Bind wallet' }).click();
  await expect(page.getByText('Your wallet is bound.')).toBeVisible();
  await throughProvider(page, subject, () =>
    page.getByRole('button', { name: `Bind ${PROVIDER}` }).click(),
  );
  await expect(page).toHaveURL(/\/rpc\/profile$/);
  await expect(page.getByText(`Bound (${subject}@idp.test)`)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Signed out, the provider signs the same user in (its own session may skip the login form).
  await signOut(page);
  await throughProvider(page, subject, () =>
    page.getByRole('button', { name: `Continue with ${PROVIDER}` }).click(),
  );
  await expect(page).toHaveURL(/\/rpc\/endpoint$/);
  // Through the sidebar, as a user goes: a reload typed this early can overtake the guard's first-visit step that
  // records the login type (SPEC §2 "No login type yet" sends a fresh load to /rpc/endpoint until it is recorded).
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Profile' })
    .click();
  await expect(page).toHaveURL(/\/rpc\/profile$/);
  await expect(page.getByText(email).first()).toBeVisible();

  // And so does the wallet: no new account, no /first-login.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page).toHaveURL(/\/rpc\/endpoint$/);
  // Through the sidebar, as a user goes: a reload typed this early can overtake the guard's first-visit step that
  // records the login type (SPEC §2 "No login type yet" sends a fresh load to /rpc/endpoint until it is recorded).
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Profile' })
    .click();
  await expect(page).toHaveURL(/\/rpc\/profile$/);
  await expect(page.getByText(email).first()).toBeVisible();

  // Two-factor sign-in: the key from the page, a code from it, backup codes shown once.
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')) });
  await page.getByLabel('Code from the app').fill(totp.generate());
  // The password too (the page's password form has a field of the same name: this is the setup form's).
  await page.locator('#two-factor-enable_password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Backup codes' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText(/^On since /)).toBeVisible();

  // The password alone no longer signs in: the next time step's code does (the current one was just used).
  await signOut(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page
    .getByLabel('Authentication code')
    .fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/rpc\/endpoint$/);
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
  await context.close();
});
