/**
 * npm run bench:web — issue 17 item 7: what the built console costs a browser, per route. Builds nothing: run
 * `npm run build` first. Starts the product as e2e does (`apps/server/src/main.ts` on its own ports and a
 * throw-away DATA_DIR), drives Debian's Chromium, and writes the figures into docs/benchmarks.md (section
 * `bench:web`).
 *
 * Per route and build, RUNS loads (median), each in a fresh browser context (cold: empty HTTP cache) followed by
 * a second load of the same route in that context (warm: hashed assets from cache, index.html revalidated):
 *   - JS files and JS bytes on the wire (PerformanceResourceTiming transferSize: compressed body plus headers;
 *     0 for a file served from cache), and every byte on the wire (document, CSS, fonts, API answers);
 *   - LCP (largest-contentful-paint, as Chromium reports it once the page is idle);
 *   - for /rpc/endpoint, "interactive": ms from navigation start until the keys table has rendered (its header
 *     row is on screen and the table is not loading) and a click on "Create API key" has opened its dialog. The
 *     click is made as soon as the table is there, so the figure includes any code the dialog loads on demand
 *     and Playwright's own polling (≈ one animation frame).
 *
 * Options (env):
 *   WEB_DIST_DIR             the build to measure (apps/web/dist)
 *   BENCH_WEB_BASELINE_DIR   a second build measured first in the same run and shown as "before" (for example
 *                            the previous commit's `vite build --outDir /tmp/before`)
 *   RUNS                     loads per route, cold and warm each (5)
 *   BENCH_WEB_PORT           first of the ports used: console, gateway, localnet (3610, 3611, 3612)
 *   BENCH_WEB_LATENCY_MS     round-trip latency Chromium adds to every request (CDP network emulation; 0): the
 *                            console as a user far from the server sees it, where a request on the critical path
 *                            costs a round trip
 *   BENCH_WEB_PROFILE=1      also a V8 CPU profile of each /rpc/endpoint load, navigation to table rendered, its
 *                            self time by package and by folder of our code (bench/web-profile.ts); needs a
 *                            build with source maps (`vite build --sourcemap`) to see more than JS files; such
 *                            a run only prints (the sampler slows the page)
 *   BENCH_WEB_PROFILE_DIR    with BENCH_WEB_PROFILE: also write each profile there (.cpuprofile, for DevTools)
 *   BENCH_WRITE_DOC=0        print only
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from '@playwright/test';
import { PASSWORD_HASH_PREFIX } from '../packages/contract/src/constants';
import { mailIsTo, mailLink } from '../e2e/fixtures/mail-link';
import { ROOT, machine, median, writeBenchSection } from './bench-doc';
import {
  attribute,
  medianByCategory,
  SourceAttribution,
  startProfile,
  stopProfile,
} from './web-profile';

const DIST = path.resolve(process.env.WEB_DIST_DIR ?? path.join(ROOT, 'apps/web/dist'));
const BASELINE = process.env.BENCH_WEB_BASELINE_DIR
  ? path.resolve(process.env.BENCH_WEB_BASELINE_DIR)
  : undefined;
const RUNS = Number(process.env.RUNS ?? 5);
const PORT = Number(process.env.BENCH_WEB_PORT ?? 3610);
const PROFILE = process.env.BENCH_WEB_PROFILE === '1';
/** A profiled run is slower than a plain one (the sampler): it prints, and never replaces the figures in the doc. */
const WRITE_DOC = process.env.BENCH_WRITE_DOC !== '0' && !PROFILE;
const LATENCY_MS = Number(process.env.BENCH_WEB_LATENCY_MS ?? 0);
const PROFILE_DIR = process.env.BENCH_WEB_PROFILE_DIR;
/** The flags e2e/playwright.config.ts gives Chromium. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type TRoute = { path: string; signedIn: boolean; interactive?: boolean };
const ROUTES: TRoute[] = [
  { path: '/', signedIn: false },
  { path: '/register', signedIn: false },
  { path: '/rpc/endpoint', signedIn: true, interactive: true },
  { path: '/rpc/statistic', signedIn: true },
  { path: '/rpc/billings', signedIn: true },
];

type TLoad = {
  jsFiles: number;
  /** compressed bodies of the JS files (encodedBodySize), without headers */
  jsBody: number;
  jsWire: number;
  totalWire: number;
  lcp: number;
  interactive?: number;
  /** for the interactive route: where its time went (Chromium's Performance metrics and resource timing) */
  breakdown?: TBreakdown;
  /** JS files with their wire size, for "where the bytes go" */
  js: { name: string; wire: number }[];
  /** BENCH_WEB_PROFILE: main-thread self time (ms) by source category, navigation to table rendered */
  profile?: Map<string, number>;
};
/**
 * Where the interactive route's time went, in ms from navigation start to "interactive": the main thread's
 * script, style and layout work (CDP Performance.getMetrics, differences over the load), when the last JS file
 * and the last `/api` answer arrived, and the `/api` calls' time on the wire summed.
 */
type TBreakdown = {
  script: number;
  style: number;
  layout: number;
  task: number;
  lastJs: number;
  lastApi: number;
  apiCalls: number;
  apiWait: number;
  /** the page's own clock (MARKS): the keys table rendered and not loading, the click event, the dialog */
  tableReady: number;
  clicked: number;
  dialogOpen: number;
  /** ms of long tasks (≥ 50 ms each) between the table's render and the click: on screen, but busy */
  busyAfterTable: number;
};
const BREAKDOWN_KEYS = [
  'script',
  'style',
  'layout',
  'task',
  'lastJs',
  'lastApi',
  'apiCalls',
  'apiWait',
  'tableReady',
  'clicked',
  'dialogOpen',
  'busyAfterTable',
] as const;

/**
 * Added to every page of the interactive route: notes on the page's own clock when the keys table is rendered and
 * not loading, when the click event comes, and when the dialog is there, so Playwright's polling and input
 * latency can be told apart from the page's own work.
 */
const MARKS = `(() => {
  const marks = (window.__benchMarks = { tableReady: -1, clicked: -1, dialogOpen: -1, longTasks: [] });
  // Tasks of 50 ms or more: while one runs, a click waits.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) marks.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (marks.tableReady < 0 && document.querySelector('main table th') && !document.querySelector('main .ant-spin-spinning')) {
      marks.tableReady = performance.now();
    }
    if (marks.clicked >= 0 && marks.dialogOpen < 0 && document.querySelector('[role=dialog]')) {
      marks.dialogOpen = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  document.addEventListener('click', () => { if (marks.clicked < 0) marks.clicked = performance.now(); check(); }, true);
})()`;
/** The CDP metrics (seconds, cumulative per page) behind script, style, layout and task. */
const CDP_METRICS = {
  script: 'ScriptDuration',
  style: 'RecalcStyleDuration',
  layout: 'LayoutDuration',
  task: 'TaskDuration',
} as const;

type TCell = { cold: TLoad[]; warm: TLoad[] };
type TBuildResult = { label: string; dist: string; routes: Map<string, TCell> };

function log(message: string): void {
  console.log(`[bench:web] ${message}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- the product, started as e2e starts it ---

type TProduct = { url: string; dataDir: string; child: ChildProcess };

async function startProduct(dist: string): Promise<TProduct> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rpc-console-bench-web-'));
  const url = `http://localhost:${PORT}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      GATEWAY_PORT: String(PORT + 1),
      LOCALNET_PORT: String(PORT + 2),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      THROTTLE_LIMIT_FACTOR: '20',
      WEB_DIST_DIR: dist,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, dataDir, child };
    await sleep(500);
  }
  child.kill('SIGTERM');
  throw new Error('the product did not answer /health within 120 s');
}

async function stopProduct(product: TProduct): Promise<void> {
  if (product.child.exitCode === null) {
    const exited = new Promise((r) => product.child.once('exit', r));
    product.child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (product.child.exitCode === null) product.child.kill('SIGKILL');
  }
  rmSync(product.dataDir, { recursive: true, force: true });
}

async function callApi(
  url: string,
  method: string,
  params: Record<string, unknown>,
  token?: string,
): Promise<{ result?: Record<string, unknown> }> {
  const response = await fetch(`${url}/api`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ method, params, id: 1 }),
  });
  return (await response.json()) as { result?: Record<string, unknown> };
}

/**
 * Registers, confirms with the mailed code, signs in through the API and creates a few API keys (the endpoint
 * page then shows its keys table, not the empty state); answers the session token.
 */
async function seedUser(product: TProduct): Promise<string> {
  const email = `bench-web-${Date.now()}@example.com`;
  const digest = createHash('md5')
    .update(`${PASSWORD_HASH_PREFIX}correct horse battery`)
    .digest('hex');
  await callApi(product.url, 'hub_register', {
    email,
    password: digest,
    confirmPassword: digest,
  });
  const outbox = path.join(product.dataDir, 'outbox');
  let code: string | undefined;
  for (let i = 0; i < 60 && !code; i++) {
    for (const name of existsSync(outbox) ? readdirSync(outbox) : []) {
      const raw = readFileSync(path.join(outbox, name), 'utf8');
      if (!mailIsTo(raw, email)) continue;
      const link = mailLink(raw, '/activate-account');
      code = link ? (new URL(link).searchParams.get('code') ?? undefined) : undefined;
    }
    if (!code) await sleep(250);
  }
  if (!code) throw new Error('no activation mail');
  await callApi(product.url, 'hub_emailConfirm', { code });
  const token = (await callApi(product.url, 'hub_login', { email, password: digest })).result
    ?.token;
  if (typeof token !== 'string') throw new Error('sign-in failed');
  for (let i = 1; i <= 5; i++) {
    const key = await callApi(product.url, 'hub_generateApiKey', { name: `bench key ${i}` }, token);
    if (!key.result) throw new Error('creating an API key failed');
  }
  return token;
}

// --- one page load ---

/** Runs in the page: resource timing and LCP once the page is idle. */
const COLLECT = `new Promise((resolve) => {
  const lcp = [];
  new PerformanceObserver((list) => lcp.push(...list.getEntries())).observe({
    type: 'largest-contentful-paint',
    buffered: true,
  });
  setTimeout(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource').map((e) => ({
      name: e.name,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
    }));
    const last = lcp[lcp.length - 1];
    resolve({
      navTransfer: nav ? nav.transferSize : 0,
      resources,
      lcp: last ? last.startTime : -1,
    });
  }, 50);
})`;

type TCollected = {
  navTransfer: number;
  resources: { name: string; transferSize: number; encodedBodySize: number }[];
  lcp: number;
};

async function cdpMetrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** Runs in the page at "interactive": when the last JS file and `/api` answer came, and the API's time. */
const TIMELINE = `(() => {
  const entries = performance.getEntriesByType('resource');
  const js = entries.filter((e) => new URL(e.name).pathname.endsWith('.js'));
  const api = entries.filter((e) => new URL(e.name).pathname === '/api');
  const { longTasks, ...marks } = window.__benchMarks;
  // Long tasks from the table's render until the click: the page was on screen but busy.
  const after = longTasks.filter(([start, duration]) => start + duration > marks.tableReady && start < marks.clicked);
  return {
    busyAfterTable: after.reduce((sum, [start, duration]) => sum + Math.min(start + duration, marks.clicked) - Math.max(start, marks.tableReady), 0),
    lastJs: Math.max(0, ...js.map((e) => e.responseEnd)),
    lastApi: Math.max(0, ...api.map((e) => e.responseEnd)),
    apiCalls: api.length,
    apiWait: api.reduce((sum, e) => sum + (e.responseEnd - e.startTime), 0),
    ...marks,
  };
})()`;

/** Pages that already carry MARKS (a cold load and its warm load share one page). */
const marked = new WeakSet<Page>();

async function measureLoad(
  page: Page,
  url: string,
  route: TRoute,
  sources?: SourceAttribution,
): Promise<TLoad> {
  await page.goto('about:blank');
  let cdp: CDPSession | undefined;
  let metricsBefore: Record<string, number> = {};
  if (route.interactive) {
    if (!marked.has(page)) {
      marked.add(page);
      await page.addInitScript(MARKS);
    }
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    metricsBefore = await cdpMetrics(cdp);
    if (sources) await startProfile(cdp);
  }
  await page.goto(url, { waitUntil: 'commit' });
  let interactive: number | undefined;
  let breakdown: TBreakdown | undefined;
  let profile: Map<string, number> | undefined;
  if (route.interactive && cdp) {
    // The keys table is on screen and not loading: its column headers are rendered, no spinner is left.
    await page
      .locator('main table th')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(os.tmpdir(), 'bench-web-failure.png') });
        throw new Error(`no keys table at ${page.url()} (screenshot in the temp folder)`, {
          cause: error,
        });
      });
    await page.locator('main .ant-spin-spinning').first().waitFor({ state: 'detached' });
    if (sources) {
      const cpuProfile = await stopProfile(cdp);
      profile = attribute(cpuProfile, sources);
      if (PROFILE_DIR) {
        mkdirSync(PROFILE_DIR, { recursive: true });
        const file = `endpoint-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`;
        writeFileSync(path.join(PROFILE_DIR, file), JSON.stringify(cpuProfile));
      }
    }
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await page.getByRole('dialog', { name: 'Create API key' }).waitFor({ state: 'visible' });
    interactive = (await page.evaluate('performance.now()')) as number;
    const after = await cdpMetrics(cdp);
    const timeline = (await page.evaluate(TIMELINE)) as Omit<TBreakdown, keyof typeof CDP_METRICS>;
    const spent = (key: keyof typeof CDP_METRICS) =>
      ((after[CDP_METRICS[key]] ?? 0) - (metricsBefore[CDP_METRICS[key]] ?? 0)) * 1000;
    breakdown = {
      script: spent('script'),
      style: spent('style'),
      layout: spent('layout'),
      task: spent('task'),
      ...timeline,
    };
    await cdp.detach();
  }
  await page.waitForLoadState('networkidle');
  // Some pages fetch code after their data has come (the statistic chart): idle means no new resource for 1 s.
  let count = -1;
  for (let i = 0; i < 20; i++) {
    const now = (await page.evaluate("performance.getEntriesByType('resource').length")) as number;
    if (now === count) break;
    count = now;
    await sleep(1000);
  }
  const data = (await page.evaluate(COLLECT)) as TCollected;
  const jsResources = data.resources.filter((r) => new URL(r.name).pathname.endsWith('.js'));
  const js = jsResources.map((r) => ({ name: new URL(r.name).pathname, wire: r.transferSize }));
  return {
    jsFiles: js.length,
    jsBody: jsResources.reduce((sum, r) => sum + r.encodedBodySize, 0),
    jsWire: js.reduce((sum, r) => sum + r.wire, 0),
    totalWire: data.navTransfer + data.resources.reduce((sum, r) => sum + r.transferSize, 0),
    lcp: data.lcp,
    js,
    ...(interactive !== undefined ? { interactive } : {}),
    ...(breakdown ? { breakdown } : {}),
    ...(profile ? { profile } : {}),
  };
}

async function newContext(browser: Browser, product: TProduct, token?: string) {
  const context: BrowserContext = await browser.newContext({ locale: 'en-US' });
  if (token) {
    await context.addCookies([
      { name: 'token', value: token, url: product.url, sameSite: 'Lax' },
      { name: 'loginType', value: 'personal', url: product.url, sameSite: 'Lax' },
    ]);
  }
  return context;
}

/** A page, with BENCH_WEB_LATENCY_MS added to each of its requests. */
async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  if (LATENCY_MS > 0) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  return page;
}

async function measureBuild(browser: Browser, label: string, dist: string): Promise<TBuildResult> {
  log(`${label}: starting the product on ${dist}`);
  const product = await startProduct(dist);
  const result: TBuildResult = { label, dist, routes: new Map() };
  const sources = PROFILE ? new SourceAttribution(dist) : undefined;
  try {
    const token = await seedUser(product);
    // One unmeasured load per build: the server's first answers (file stats, JIT) are not the page's cost.
    const warmup = await newContext(browser, product, token);
    await measureLoad(await newPage(warmup), `${product.url}/rpc/endpoint`, ROUTES[2]!);
    await warmup.close();
    for (const route of ROUTES) {
      const cell: TCell = { cold: [], warm: [] };
      for (let run = 0; run < RUNS; run++) {
        const context = await newContext(browser, product, route.signedIn ? token : undefined);
        const page = await newPage(context);
        cell.cold.push(await measureLoad(page, `${product.url}${route.path}`, route, sources));
        cell.warm.push(await measureLoad(page, `${product.url}${route.path}`, route, sources));
        await context.close();
      }
      result.routes.set(route.path, cell);
      log(`${label} ${route.path}: ${summary(cell)}`);
    }
  } finally {
    await stopProduct(product);
  }
  return result;
}

// --- report ---

const kb = (bytes: number) => (bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0);
const ms = (value: number) => (value < 0 ? 'n/a' : value.toFixed(0));

function figures(loads: TLoad[]) {
  return {
    jsFiles: median(loads.map((l) => l.jsFiles)),
    jsBody: median(loads.map((l) => l.jsBody)),
    jsWire: median(loads.map((l) => l.jsWire)),
    totalWire: median(loads.map((l) => l.totalWire)),
    lcp: median(loads.map((l) => l.lcp)),
    interactive:
      loads[0]?.interactive === undefined ? undefined : median(loads.map((l) => l.interactive!)),
  };
}

function summary(cell: TCell): string {
  const c = figures(cell.cold);
  const w = figures(cell.warm);
  return `cold ${c.jsFiles} js ${kb(c.jsBody)} KB compressed (${kb(c.jsWire)} KB with headers), total ${kb(c.totalWire)} KB, LCP ${ms(c.lcp)} ms${c.interactive !== undefined ? `, interactive ${ms(c.interactive)} ms` : ''}; warm ${kb(w.jsWire)} KB js, LCP ${ms(w.lcp)} ms${w.interactive !== undefined ? `, interactive ${ms(w.interactive)} ms` : ''}`;
}

function table(results: TBuildResult[]): string {
  const rows = [
    '| route | build | cache | JS files | JS, compressed bodies (KB) | JS on the wire, with headers (KB) | all bytes on the wire (KB) | LCP (ms) | interactive (ms) |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const route of ROUTES) {
    for (const result of results) {
      const cell = result.routes.get(route.path)!;
      for (const cache of ['cold', 'warm'] as const) {
        const f = figures(cell[cache]);
        rows.push(
          `| \`${route.path}\` | ${result.label} | ${cache} | ${f.jsFiles} | ${cache === 'warm' ? '(cached)' : kb(f.jsBody)} | ${kb(f.jsWire)} | ${kb(f.totalWire)} | ${ms(f.lcp)} | ${f.interactive === undefined ? '' : ms(f.interactive)} |`,
        );
      }
    }
  }
  return rows.join('\n');
}

/** Where the interactive route's time went: medians per build and cache. */
function breakdownTable(results: TBuildResult[]): string {
  const route = ROUTES.find((r) => r.interactive)!;
  const rows = [
    `| \`${route.path}\` | cache | interactive | main-thread tasks | of which script | style | layout | last JS file in | last \`/api\` answer in | \`/api\` calls | their time on the wire, summed | table rendered (page clock) | long tasks from table to click | click event (page clock) | dialog open (page clock) |`,
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const result of results) {
    const cell = result.routes.get(route.path)!;
    for (const cache of ['cold', 'warm'] as const) {
      const loads = cell[cache].filter((l) => l.breakdown);
      if (loads.length === 0) continue;
      const m = Object.fromEntries(
        BREAKDOWN_KEYS.map((key) => [key, median(loads.map((l) => l.breakdown![key]))]),
      ) as TBreakdown;
      const i = median(loads.map((l) => l.interactive!));
      rows.push(
        `| ${result.label} | ${cache} | ${ms(i)} | ${ms(m.task)} | ${ms(m.script)} | ${ms(m.style)} | ${ms(m.layout)} | ${ms(m.lastJs)} | ${ms(m.lastApi)} | ${m.apiCalls} | ${ms(m.apiWait)} | ${ms(m.tableReady)} | ${ms(m.busyAfterTable)} | ${ms(m.clicked)} | ${ms(m.dialogOpen)} |`,
      );
    }
  }
  return rows.join('\n');
}

/** BENCH_WEB_PROFILE: the categories with the most main-thread self time, cold and warm, per build. */
function profileTable(results: TBuildResult[], count = 30): string {
  const route = ROUTES.find((r) => r.interactive)!;
  const columns = results.flatMap((result) =>
    (['cold', 'warm'] as const).map((cache) => ({
      title: `${result.label}, ${cache}`,
      figures: new Map(
        medianByCategory(
          result.routes.get(route.path)![cache].flatMap((l) => (l.profile ? [l.profile] : [])),
        ),
      ),
    })),
  );
  const total = (figures: Map<string, number>) => [...figures.values()].reduce((a, b) => a + b, 0);
  const order = [...columns[columns.length - 2]!.figures.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([category]) => category);
  return [
    `| where (\`${route.path}\`, ms of main-thread self time) | ${columns.map((c) => c.title).join(' | ')} |`,
    `|---|${columns.map(() => '--:').join('|')}|`,
    ...order.map(
      (category) =>
        `| ${category} | ${columns.map((c) => (c.figures.get(category) ?? 0).toFixed(1)).join(' | ')} |`,
    ),
    `| all sampled time, summed per category (not idle) | ${columns.map((c) => total(c.figures).toFixed(0)).join(' | ')} |`,
  ].join('\n');
}

/** The biggest JS files of a route's first cold load, for "where the bytes go". */
function topFiles(result: TBuildResult, routePath: string, count = 8): string {
  const load = result.routes.get(routePath)!.cold[0]!;
  return [...load.js]
    .sort((a, b) => b.wire - a.wire)
    .slice(0, count)
    .map((f) => `${path.basename(f.name)} ${kb(f.wire)} KB`)
    .join(', ');
}

async function main(): Promise<void> {
  for (const dist of [DIST, ...(BASELINE ? [BASELINE] : [])]) {
    if (!existsSync(path.join(dist, 'index.html'))) {
      console.error(
        `[bench:web] no build in ${dist}: run \`npm run build\` first (this benchmark builds nothing)`,
      );
      process.exit(1);
    }
  }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const chromiumVersion = browser.version();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const results: TBuildResult[] = [];
  try {
    if (BASELINE) results.push(await measureBuild(browser, 'before', BASELINE));
    results.push(await measureBuild(browser, BASELINE ? 'after' : 'this build', DIST));
  } finally {
    await browser.close();
  }
  const loadAfter = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const now = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const section = [
    `## Web app per route${LATENCY_MS > 0 ? `, ${LATENCY_MS} ms away` : ''} (\`npm run bench:web\`, ${now} UTC)`,
    '',
    `Machine: ${os.cpus().length} cores (nproc), load average ${load} at the start and ${loadAfter} at the end (shared with other sessions: noisy); ${machine()}; Chromium ${chromiumVersion} headless (the e2e flags), localhost${LATENCY_MS > 0 ? `, with ${LATENCY_MS} ms of round-trip latency added to every request (BENCH_WEB_LATENCY_MS)` : ''}.`,
    '',
    `Median of ${RUNS} loads per row. Cold: a fresh browser context (empty cache); warm: the same route loaded again in that context. ` +
      'Compressed bodies are PerformanceResourceTiming `encodedBodySize` (what the 150 KB target of issue 17 is about); ' +
      'bytes on the wire are its `transferSize` (body plus response headers, ≈ 0.3 KB a file; 0 when served from cache). ' +
      'LCP is Chromium\'s largest-contentful-paint once the page is idle. "Interactive" (the dashboard, `/rpc/endpoint`) is the time ' +
      'from navigation start until the keys table has rendered (header row on screen, no spinner) and a click on ' +
      '"Create API key" has opened its dialog; the click is made as soon as the table is there.',
    '',
    table(results),
    '',
    'Where the dashboard\'s time goes (ms from navigation start to "interactive", medians): the main thread\'s work ' +
      "(Chromium's Performance.getMetrics over the load: all tasks, and the script, style recalculation and layout " +
      'among them), when the last JS file and the last `/api` answer had arrived, and how long the `/api` calls were ' +
      'on the wire, summed (they overlap). The last four are noted by the page itself (a MutationObserver, a click ' +
      'listener and a long-task observer added before the app loads): when the keys table is rendered and not loading, ' +
      'how much of the time from then until the click the main thread spent in tasks of 50 ms or more (a click waits ' +
      'for them), when Playwright\'s click arrives, and when the dialog is in the page; "interactive" is Playwright\'s ' +
      'view of the last, after its polling.',
    '',
    breakdownTable(results),
    '',
    ...(PROFILE
      ? [
          "Where the main thread's time goes until the table has rendered (BENCH_WEB_PROFILE: a V8 CPU profile of each " +
            'load, sampled every 100 µs, self time per function mapped through the source maps to its package, antd ' +
            'per component, or folder of our code; medians per category; the profiler slows the page by a few %). ' +
            '"(program)" is V8\'s and Blink\'s work outside any function (parsing, compiling, the event loop).',
          '',
          profileTable(results),
          '',
        ]
      : []),
    ...results.map(
      (r) => `Biggest JS files of \`/\` (${r.label}, cold, on the wire): ${topFiles(r, '/')}.`,
    ),
    '',
    ...results.map(
      (r) =>
        `Biggest JS files of \`/rpc/endpoint\` (${r.label}, cold, on the wire): ${topFiles(r, '/rpc/endpoint')}.`,
    ),
  ].join('\n');
  console.log(`\n${section}\n`);
  if (WRITE_DOC) {
    await writeBenchSection(LATENCY_MS > 0 ? 'web-latency' : 'web', section);
    log('written to docs/benchmarks.md');
  }
}

await main();
