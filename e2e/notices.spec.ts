// Issue 5 proof: the register_gift notice is there after sign-in, a notice raised on the server arrives at once
// as a popup and in the list, and "Mark all as read" clears the badge.
import { expect, test } from '@playwright/test';
import { callApi, registerConfirmAndSignIn } from './fixtures/account';

test('notices: gift on sign-up, a live notice as popup and in the list, mark all read', async ({
  page,
  context,
}) => {
  await registerConfirmAndSignIn(page, 'e2e-notices');

  const bell = page.getByRole('button', { name: 'Notifications' });
  await expect(bell).toHaveAccessibleDescription('1 unread notification');
  // The bell opens a preview of the latest notices; "See all" leads to the list.
  await bell.click();
  await page.getByRole('link', { name: 'See all notifications' }).click();
  await expect(page).toHaveURL(/\/rpc\/notifications$/);
  const list = page.getByRole('list', { name: 'Notifications', exact: true });
  await expect(list.getByText('Welcome gift')).toBeVisible();

  // Raise a notice on the server: deleting a key raises apikey_delete, pushed over the socket.
  const token = (await context.cookies()).find((c) => c.name === 'token')?.value;
  expect(token).toBeTruthy();
  const created = await callApi('hub_generateApiKey', { name: 'short-lived' }, token);
  const keyId = created.result?.keyId as string;
  expect(await callApi('hub_deleteApiKey', { keyId }, token)).toMatchObject({
    result: { success: true },
  });

  const popup = page.locator('.ant-notification-topLeft');
  await expect(popup.getByText('API key deleted')).toBeVisible();
  await expect(list.getByText('API key deleted')).toBeVisible();
  await expect(bell).toHaveAccessibleDescription('2 unread notifications');

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell).toHaveAccessibleDescription('No unread notifications');
});
