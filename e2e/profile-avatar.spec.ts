// Avatars (issue 16): a signed-in user uploads a PNG on /rpc/profile, sees the server's re-encoded image on the page
// and in the header, then removes it after confirming.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { expectSignedIn, seedSignedInUser, useSessionToken } from './fixtures/session';

const AVATAR_URL = /^\/avatar\/[0-9a-f-]{36}\?v=[0-9a-f]{12}$/;

test('a user uploads an avatar, sees it in the header and removes it', async ({
  page,
  context,
}) => {
  const user = await seedSignedInUser('e2e-avatar');
  await useSessionToken(context, user.token);
  await page.goto('/rpc/profile');
  await expectSignedIn(page, '/rpc/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'Avatar' })).toBeVisible();

  // A 400 × 300 picture: the server crops it to a 256 × 256 WebP.
  const png = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#3366cc' },
  })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });

  await expect(page.getByText('Avatar updated.')).toBeVisible();
  const avatar = page.getByRole('img', { name: /^Avatar of / });
  await expect(avatar).toHaveAttribute('src', AVATAR_URL);
  const src = (await avatar.getAttribute('src'))!;
  // The browser really loads it (CSP img-src 'self'): the server's 256 × 256 re-encoding.
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(256);
  const served = await page.request.get(src);
  expect(served.headers()['content-type']).toBe('image/webp');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');

  const headerImage = page.locator('header img');
  await expect(headerImage).toHaveAttribute('src', src);
  await expect
    .poll(() => headerImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(256);

  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText('Avatar removed.')).toBeVisible();
  await expect(page.getByText(/No avatar yet/)).toBeVisible();
  await expect(headerImage).toHaveCount(0);
  expect((await page.request.get(src)).status()).toBe(404);
});
