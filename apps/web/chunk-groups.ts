/**
 * How the build groups modules into JS files (vite.config.ts). Left to itself, rolldown makes one file for every set
 * of lazy pages sharing a module: the dashboard fetched ~95 small files, six at a time over HTTP/1.1, and its
 * first paint waited for them (docs/benchmarks.md, "Web app"). Here, per route kind, a few larger files:
 *   - `app`: everything main.tsx needs before the first render (one file instead of ~20);
 *   - `sign-in`: what the sign-in and sign-up pages need besides `app` (the pages most visitors see first);
 *   - `antd` and `checks`: what public pages load on demand that the dashboard needs as well (ON_DEMAND_GROUPS);
 *   - `console`: what the dashboard needs on every page (its layout, the session wiring, and every module that three
 *     or more dashboard pages share), minus whatever a visitor may load outside the dashboard (a public page's code
 *     and what it or `app` imports on demand), so no public page loads it;
 *   - the rest as rolldown splits it: each page's own code, echarts for the two chart pages, code a public page
 *     shares with the console.
 * Which page is a dashboard or a sign-in page is read from app/routes/route-table.tsx, the one place that says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rolldown } from 'vite';

type TGroup = Rolldown.CodeSplittingGroup;
type TGetModuleInfo = (id: string) => Rolldown.ModuleInfo | null;

const SRC = fileURLToPath(new URL('./src/', import.meta.url));
const ENTRY = path.join(SRC, 'main.tsx');
const ROUTE_TABLE = path.join(SRC, 'app/routes/route-table.tsx');
/**
 * Loaded on demand by the public pages too, and by every dashboard page, each as one file: antd's popups and
 * providers (the sign-in page's first popup, a public antd page), and the sign-in form's checks (zod and the
 * contract's schemas, with the form's first change). Grouped before `console`, so `console` imports them rather
 * than taking them in (rolldown puts a group's dependencies into it unless an earlier group has them).
 */
const ON_DEMAND_GROUPS = [
  { name: 'antd', roots: ['lib/antd-popups.ts', 'components/antd-scope.tsx'] },
  { name: 'checks', roots: ['features/auth/utils/auth-checks.ts'] },
] as const;

/** Loaded for every dashboard route: the layout (AppShell) and what follows a session (main.tsx). */
const CONSOLE_ROOTS = ['app/routes/dashboard-shell.tsx', 'app/session-wiring.ts'].map((file) =>
  path.join(SRC, file),
);
/**
 * A module this many dashboard pages share goes into `console`. Two would bring the date picker, Stripe and the QR
 * code (two pages each, ≈ 90 KB compressed) into every dashboard page.
 */
const MIN_PAGES = 3;
/**
 * Big and used by the chart pages only: stays out of `console` however many pages share it, and so does every
 * module that imports it (lib/use-echarts.ts, which three chart pages share): rolldown puts a group's
 * dependencies into the group, so one such module in `console` brought all of echarts (≈ 150 KB compressed)
 * to every dashboard page.
 */
const PAGE_ONLY = /[\\/]node_modules[\\/](?:echarts|zrender)[\\/]/;

/** The page modules of route-table.tsx: dashboard pages (`meta: dashboard(…)`) and the sign-in pages. */
export function readRoutePages(source: string): { dashboard: string[]; signIn: string[] } {
  const resolve = (spec: string) => path.resolve(path.dirname(ROUTE_TABLE), `${spec}.tsx`);
  const dashboard = [
    ...source.matchAll(/meta: dashboard\('[^']+'\),\s*Page: page\(\s*\(\) => import\('([^']+)'\)/g),
  ].map((m) => resolve(m[1]!));
  const signIn = [
    ...source.matchAll(/\(\) => import\('([^']+)'\),\s*'\w+',\s*\{\s*ns: SIGN_IN_NAMESPACES/g),
  ].map((m) => resolve(m[1]!));
  const expected = source.split('meta: dashboard(').length - 1;
  if (dashboard.length === 0 || dashboard.length !== expected || signIn.length === 0) {
    throw new Error(
      `chunk-groups: read ${dashboard.length} of ${expected} dashboard pages and ${signIn.length} sign-in pages from route-table.tsx; update the patterns`,
    );
  }
  return { dashboard, signIn };
}

/**
 * The module graph as the bundle has it. `importedIds` lists every re-export of a barrel module (antd's and the
 * icons' index files) although tree shaking keeps only the components a module names, so an import from a barrel
 * that the bundle dropped is followed to the modules of the names imported, read from the two modules' code.
 */
class ModuleGraph {
  private readonly edges = new Map<string, string[]>();

  constructor(
    private readonly info: TGetModuleInfo,
    /** the modules in the bundle (rolldown offers groups every kept module, and only those) */
    private readonly kept: ReadonlySet<string>,
  ) {}

  private code(id: string): string {
    return this.info(id)?.code ?? (path.isAbsolute(id) ? readFileSync(id, 'utf8') : '');
  }

  /** `spec` of an import in `from`, resolved among the modules `from` imports. */
  private resolveIn(from: string, spec: string): string | undefined {
    const base = path.resolve(path.dirname(from), spec);
    return this.info(from)?.importedIds.find(
      (id) =>
        id === base ||
        (id.startsWith(base) && /^(?:\/index)?\.[cm]?[jt]sx?$/.test(id.slice(base.length))),
    );
  }

  /** The specifiers `id` re-exports from (`export * from`, `export { … } from`) and those it imports. */
  private specs(id: string): { reexported: Set<string>; imported: Set<string> } {
    const code = this.code(id);
    const pick = (re: RegExp) =>
      new Set([...code.matchAll(re)].flatMap((m) => this.resolveIn(id, m[1]!) ?? []));
    return {
      reexported: pick(/export\s*(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g),
      imported: pick(/import\s*(?:[\w$*{},\s]+from\s*)?["']([^"']+)["']/g),
    };
  }

  /** The kept modules behind `names` of a barrel (a module that re-exports others), the barrel's own included. */
  private throughBarrel(barrel: string, names: readonly string[], depth = 0): string[] {
    const code = this.code(barrel);
    const found: string[] = [];
    const starTargets = [...code.matchAll(/export \* from ["']([^"']+)["']/g)].flatMap(
      (m) => this.resolveIn(barrel, m[1]!) ?? [],
    );
    for (const name of names) {
      const escaped = name.replace(/\$/g, '\\$');
      const local = new RegExp(
        `export (?:declare )?(?:const|let|var|function\\*?|async function|class|enum) ${escaped}\\b`,
      );
      if (depth > 0 && local.test(code)) {
        found.push(barrel);
        continue;
      }
      const named = new RegExp(
        `export \\{[^}]*\\b(?:default as )?${escaped}\\b[^}]*\\} from ["']([^"']+)["']`,
      ).exec(code);
      const target = named ? this.resolveIn(barrel, named[1]!) : undefined;
      if (target) {
        found.push(
          ...(this.kept.has(target) || depth > 3
            ? [target]
            : this.throughBarrel(target, ['default'], depth + 1)),
        );
      } else if (starTargets.length > 0 && depth <= 3) {
        found.push(...starTargets.flatMap((star) => this.throughBarrel(star, [name], depth + 1)));
      }
    }
    if (this.kept.has(barrel) && depth === 0) found.push(barrel);
    return found.filter((id) => this.kept.has(id));
  }

  /** The package name of a module in a package (`antd`, `@rpc/contract`), read from its package.json. */
  private packageName(id: string): string | undefined {
    for (let dir = path.dirname(id); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const file = path.join(dir, 'package.json');
      if (!existsSync(file)) continue;
      return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
    }
    return undefined;
  }

  /** The kept modules `id` imports statically (a barrel's re-exports are reached by name from its importers). */
  imports(id: string): string[] {
    let result = this.edges.get(id);
    if (result) return result;
    result = [];
    const code = this.code(id);
    const { reexported, imported } = this.specs(id);
    for (const dep of this.info(id)?.importedIds ?? []) {
      if (reexported.has(dep) && !imported.has(dep)) continue;
      const isBarrel = /export\s*(?:\*|\{[^}]*\})\s*from/.test(this.code(dep));
      const pkg = isBarrel ? this.packageName(dep) : undefined;
      const names = pkg
        ? [
            ...code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${pkg}["']`, 'g')),
          ].flatMap((m) =>
            m[1]!
              .split(',')
              .map(
                (part) =>
                  part
                    .trim()
                    .replace(/^type\s+/, '')
                    .split(/\s+as\s+/)[0]!,
              )
              .filter(Boolean),
          )
        : [];
      if (names.length > 0) result.push(...this.throughBarrel(dep, names));
      else if (this.kept.has(dep)) result.push(dep);
    }
    this.edges.set(id, result);
    return result;
  }

  /** Every kept module `root` imports statically, itself included. */
  closure(root: string): Set<string> {
    const seen = new Set<string>();
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...this.imports(id));
    }
    return seen;
  }
}

type TGroupName = 'app' | 'sign-in' | (typeof ON_DEMAND_GROUPS)[number]['name'] | 'console';
type TClassified = Map<string, TGroupName>;

/**
 * Every module a visitor may load without entering the dashboard: the public pages' code and, from there and from
 * `app`, what they import on demand (antd's providers for a public antd page, the popups' code with the sign-in
 * page's first popup, the sign-in form's checks), but not the dashboard's pages, layout or session wiring. None of
 * it may go into `console`, or the first popup on the sign-in page would fetch the whole dashboard.
 */
function reachableWithoutConsole(
  info: TGetModuleInfo,
  staticClosure: (root: string) => Set<string>,
  app: ReadonlySet<string>,
  publicPages: readonly string[],
  consoleEntries: readonly string[],
): Set<string> {
  const reached = new Set<string>();
  const roots = new Set<string>();
  const queue = [...publicPages];
  const queueDynamic = (id: string) => {
    for (const target of info(id)?.dynamicallyImportedIds ?? []) {
      if (!consoleEntries.includes(target) && !roots.has(target)) queue.push(target);
    }
  };
  app.forEach(queueDynamic);
  while (queue.length > 0) {
    const root = queue.pop()!;
    if (roots.has(root)) continue;
    roots.add(root);
    for (const id of staticClosure(root)) {
      if (reached.has(id)) continue;
      reached.add(id);
      queueDynamic(id);
    }
  }
  return reached;
}

/** `ids` and every module that imports one of them statically, directly or through others. */
function importersOf(info: TGetModuleInfo, ids: string[]): Set<string> {
  const found = new Set(ids);
  const queue = [...ids];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const importer of info(id)?.importers ?? []) {
      if (found.has(importer)) continue;
      found.add(importer);
      queue.push(importer);
    }
  }
  return found;
}

/** Sorts every module once, on the first call (the module graph is complete by then). */
function classify(info: TGetModuleInfo, kept: ReadonlySet<string>): TClassified {
  const { dashboard, signIn } = readRoutePages(readFileSync(ROUTE_TABLE, 'utf8'));
  const graph = new ModuleGraph(info, kept);
  const staticClosure = (root: string) => graph.closure(root);
  const app = staticClosure(ENTRY);
  const pages = info(ROUTE_TABLE)?.dynamicallyImportedIds ?? [];
  // Besides the public pages, the pages' prefetch modules (route-table.tsx, TPageOptions.prefetch): what they import
  // stays out of `console` like a public page's code, so a dashboard page's first requests start before `console`
  // and antd have loaded.
  const publicPages = pages.filter((id) => !dashboard.includes(id));
  const reachedByPublic = reachableWithoutConsole(info, staticClosure, app, publicPages, [
    ...dashboard,
    ...CONSOLE_ROOTS,
  ]);
  const result: TClassified = new Map();
  for (const id of app) result.set(id, 'app');
  for (const page of signIn) {
    for (const id of staticClosure(page)) if (!result.has(id)) result.set(id, 'sign-in');
  }
  for (const group of ON_DEMAND_GROUPS) {
    for (const root of group.roots) {
      for (const id of staticClosure(path.join(SRC, root))) {
        if (!result.has(id)) result.set(id, group.name);
      }
    }
  }
  const pagesUsing = new Map<string, number>();
  for (const page of dashboard) {
    for (const id of staticClosure(page)) pagesUsing.set(id, (pagesUsing.get(id) ?? 0) + 1);
  }
  const consoleModules = new Set(CONSOLE_ROOTS.flatMap((root) => [...staticClosure(root)]));
  for (const [id, count] of pagesUsing) if (count >= MIN_PAGES) consoleModules.add(id);
  const pageOnly = importersOf(
    info,
    [...kept].filter((id) => PAGE_ONLY.test(id)),
  );
  for (const id of consoleModules) {
    if (!result.has(id) && !reachedByPublic.has(id) && !pageOnly.has(id)) {
      result.set(id, 'console');
    }
  }
  if (process.env.CHUNK_GROUPS_DEBUG) {
    const sizes = new Map<string, number>();
    for (const [id, name] of result) {
      const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?:es[\\/])?([^\\/]+)?/.exec(
        id,
      );
      const key = `${name} ${pagesUsing.get(id) ?? 0} ${pkg ? `${pkg[1]}/${pkg[2]}` : path.relative(SRC, id).split('/').slice(0, 2).join('/')}`;
      sizes.set(key, (sizes.get(key) ?? 0) + (info(id)?.code?.length ?? 0));
    }
    // Which chunk each package's modules went to, with how many dashboard pages use them (code size, bytes).
    console.error(
      [...sizes]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 80)
        .map(([k, v]) => `${k} ${v}`)
        .join('\n'),
    );
  }
  return result;
}

/** The groups for `build.rolldownOptions.output.codeSplitting.groups`, after the locale group. */
export function routeChunkGroups(): TGroup[] {
  let classified: TClassified | undefined;
  const kept = new Set<string>();
  const group = (name: TGroupName, priority: number): TGroup => ({
    // Called for every kept module before any name() of the group: the first group's calls list them all.
    test: (id) => {
      kept.add(id);
      return true;
    },
    name: (id, ctx) => {
      classified ??= classify((moduleId) => ctx.getModuleInfo(moduleId), kept);
      return classified.get(id) === name ? name : null;
    },
    debugName: name,
    priority,
  });
  return [
    group('app', 30),
    group('sign-in', 20),
    ...ON_DEMAND_GROUPS.map(({ name }, i) => group(name, 16 - i)),
    group('console', 10),
  ];
}
