// Issue 17 item 7, how the console's code is split. The chart library (echarts, ≈ 170 KB compressed) loads with the chart pages only. It once rode
// in the `console` file every dashboard page loads, because lib/use-echarts.ts is shared by three chart pages
// (apps/web/chunk-groups.ts). The check reads the code the browser fetched, not file names: a marker of echarts'
// own code must be in what /rpc/statistic loads (so the marker is right) and in nothing /rpc/endpoint loads.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_USER, expectSignedIn, seedSignedInUser, useSessionToken } from './fixtures/session';

/** A name echarts' minified code keeps (its inner-state key); no code of ours uses it. */
const ECHARTS_MARKER = '_ec_inner';

/** The bodies of every JS file the page has loaded so far. */
async function loadedScripts(page: Page): Promise<{ url: string; code: string }[]> {
  const urls = (await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => new URL(name).pathname.endsWith('.js')),
  )) as string[];
  return Promise.all(
    urls.map(async (url) => ({ url, code: await (await page.request.get(url)).text() })),
  );
}

test('the endpoint page loads no chart code; the statistic page does', async ({
  page,
  context,
}) => {
  const user = await seedSignedInUser(SHARED_USER);
  await useSessionToken(context, user.token);

  await page.goto('/rpc/endpoint');
  await expectSignedIn(page, '/rpc/endpoint');
  await expect(page.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const endpointScripts = await loadedScripts(page);
  expect(endpointScripts.length).toBeGreaterThan(3);
  expect(endpointScripts.filter((s) => s.code.includes(ECHARTS_MARKER)).map((s) => s.url)).toEqual(
    [],
  );

  await page.goto('/rpc/statistic');
  await expectSignedIn(page, '/rpc/statistic');
  await page.waitForLoadState('networkidle');
  await expect
    .poll(async () => (await loadedScripts(page)).some((s) => s.code.includes(ECHARTS_MARKER)))
    .toBe(true);
});

/** The JS files a built file imports, directly or through others (static imports only). */
function staticImports(assets: string, file: string, seen = new Set<string>()): Set<string> {
  const code = readFileSync(path.join(assets, file), 'utf8');
  for (const match of code.matchAll(/(?:import|from)\s*["']\.\/([\w.-]+\.js)["']/g)) {
    const imported = match[1]!;
    if (seen.has(imported)) continue;
    seen.add(imported);
    staticImports(assets, imported, seen);
  }
  return seen;
}

// A dashboard page's first requests start from a module of their own (route-table.tsx, TPageOptions.prefetch), so
// they go out beside the page's code: that module must not wait for the console's or antd's files.
test('the endpoint page’s prefetch loads without the console’s and antd’s code', () => {
  const assets = path.join(
    process.env.E2E_WEB_DIST_DIR ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url)),
    'assets',
  );
  const prefetch = readdirSync(assets).filter((f) => /^prefetch-endpoint-page-.*\.js$/.test(f));
  expect(prefetch).toHaveLength(1);
  const imports = [...staticImports(assets, prefetch[0]!)];
  expect(imports.some((f) => f.startsWith('app-'))).toBe(true);
  expect(imports.filter((f) => /^(console|antd)-/.test(f))).toEqual([]);
  // And the page itself does import them (so the check above can fail).
  const page = readdirSync(assets).find((f) => /^endpoint-page-.*\.js$/.test(f))!;
  expect([...staticImports(assets, page)].filter((f) => /^(console|antd)-/.test(f))).toHaveLength(
    2,
  );
});

// react-router 7's package exports name only its development files, so a build shipped its development-only
// warnings (a console warning for every unmatched URL, among others) until the build took its production files
// (apps/web/vite.config.ts). Read in the code the sign-in page fetched; its invariant texts are in both builds. The
// warning's text is in the production files too, inside `if (ENABLE_DEV_WARNINGS)` with the flag false: the build
// drops that branch, so the text is gone from the bundle only when both the production files and the minifier did.
test('the sign-in page loads react-router’s production build', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const scripts = await loadedScripts(page);
  const routerCode = scripts.filter((s) =>
    s.code.includes('may be used only in the context of a <Router> component'),
  );
  expect(routerCode).toHaveLength(1);
  // A boolean, so a failure does not print the whole file.
  expect(
    routerCode[0]!.code.includes('No routes matched location'),
    `${routerCode[0]!.url} holds react-router's development-only warnings`,
  ).toBe(false);
});
