// Issue 17 item 7: antd's component CSS comes from the stylesheet built by apps/web/antd-styles-plugin.ts, not
// from CSS-in-JS at run time. On the dashboard the components it covers insert no <style> of their own, and they
// still look as antd draws them under the console's theme (the primary colour, a modal laid over the page).
import { expect, test } from '@playwright/test';
import { expectSignedIn, seedSignedInUser, useSessionToken } from './fixtures/session';

/** Selectors of components the built stylesheet covers (apps/web/antd-static-styles.ts). */
const COVERED = ['.ant-btn', '.ant-table', '.ant-typography', '.ant-modal', '.ant-form-item'];

test('the dashboard takes antd styles from the built stylesheet, and they apply', async ({
  page,
  context,
}) => {
  const user = await seedSignedInUser('e2e-antd-styles');
  await useSessionToken(context, user.token);
  await page.goto('/rpc/endpoint');
  await expectSignedIn(page, '/rpc/endpoint');
  await expect(page.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await expect(dialog).toBeVisible();

  const styles = await page.evaluate(() => ({
    // The stylesheet's cache-path rule (what antd reads to skip generation) is loaded.
    map: Array.from(document.styleSheets).some((sheet) =>
      Array.from(sheet.cssRules).some((rule) =>
        rule.cssText.startsWith('.data-ant-cssinjs-cache-path'),
      ),
    ),
    // What antd inserted at run time: one <style data-css-hash> per generated style.
    inserted: Array.from(document.querySelectorAll('style[data-css-hash]')).map(
      (s) => s.textContent ?? '',
    ),
  }));
  expect(styles.map).toBe(true);
  for (const selector of COVERED) {
    expect(styles.inserted.filter((css) => css.includes(`${selector}{`))).toEqual([]);
  }

  // The built styles are the console's theme: the primary button is antd-theme.ts's PRIMARY (#0958d9).
  const primary = dialog.getByRole('button', { name: 'Create' });
  await expect(primary).toHaveCSS('background-color', 'rgb(9, 88, 217)');
  // And the modal is laid out as antd does it: a fixed wrapper over the page.
  await expect(page.locator('.ant-modal-wrap').first()).toHaveCSS('position', 'fixed');
});
