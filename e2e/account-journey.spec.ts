// The foundation journey of issue 2: register, confirm by mail, sign in, switch language, reload, sign out.
import { expect, test } from '@playwright/test';
import { waitForMailLink } from './fixtures/outbox';

test('a new user registers, confirms, signs in, switches to Chinese, reloads and signs out', async ({
  page,
}) => {
  const email = `e2e-${Date.now()}@example.com`;
  const password = 'correct horse battery';

  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/register-confirm/);
  await expect(page.getByText(email)).toBeVisible();

  const link = await waitForMailLink(email, '/activate-account');
  await page.goto(link);
  await expect(page.getByText(/confirmed/i).first()).toBeVisible();

  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/rpc\/endpoint$/);

  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByText('中文', { exact: true }).click();
  await expect(page).toHaveURL(/\/zh\/rpc\/endpoint$/);
  await expect(page.getByRole('navigation').getByText('个人资料')).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/zh\/rpc\/endpoint$/);
  await expect(page.getByRole('navigation').getByText('个人资料')).toBeVisible();

  await page.getByRole('button', { name: /用户菜单|User menu/ }).click();
  await page.getByText('退出登录', { exact: true }).click();
  await expect(page).toHaveURL(/\/(zh\/?)?$/);

  await page.goto('/rpc/billings');
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/(zh\/?)?$/);
});
