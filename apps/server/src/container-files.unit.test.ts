/**
 * The container files (Dockerfile, .dockerignore, docker-compose.yml, .env.example) against the code they run.
 * Always linted here, so CI without Docker still catches a COPY of a moved file or an unknown variable; with a Docker
 * daemon the image is also built and the Compose file resolved. docs/scale-mode.md, "Containers".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as loadYaml, stringify as dumpYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv, ZEnvSchema } from './env';
import { parseOauthEnv } from './services/sign-in/oauth-env';

const ROOT = path.resolve(import.meta.dirname, '../../..');

type TFiles = { dockerfile: string; dockerignore: string; compose: string; envExample: string };

const REPO_FILES: TFiles = {
  dockerfile: path.join(ROOT, 'Dockerfile'),
  dockerignore: path.join(ROOT, '.dockerignore'),
  compose: path.join(ROOT, 'docker-compose.yml'),
  envExample: path.join(ROOT, '.env.example'),
};

// ---------------------------------------------------------------------------------------------------------------
// Which variables the product reads: the env schema, the chains' upstream variables, OAUTH_<ID>_* settings, and
// two read outside both (Node's NODE_ENV; KUBECONFIG in services/dedicated-nodes/dn-driver-config.ts).

const SCHEMA_KEYS = new Set(Object.keys(ZEnvSchema.shape));
const CHAIN_KEYS = new Set(
  [
    ...readFileSync(path.join(ROOT, 'apps/gateway/config/chains.json'), 'utf8').matchAll(
      /"env:([A-Z0-9_]+)/g,
    ),
  ].map((m) => m[1] ?? ''),
);
const OTHER_KEYS = new Set(['NODE_ENV', 'KUBECONFIG']);

/** parseOauthEnv names every OAUTH_<ID>_<SETTING> it knows when its provider is not listed. */
function isOauthSetting(name: string): boolean {
  return parseOauthEnv({ [name]: 'x' }).issues.some((i) => i.startsWith(`${name}: set, but`));
}

function isKnownVariable(name: string): boolean {
  return (
    SCHEMA_KEYS.has(name) || CHAIN_KEYS.has(name) || OTHER_KEYS.has(name) || isOauthSetting(name)
  );
}

const SECRET_NAME = /SECRET|PASSWORD|TOKEN|PRIVATE|_KEY$/;
/** A value that only refers to a variable (`${NAME}`, `${NAME:?message}`), so the secret itself is elsewhere. */
const INTERPOLATION_ONLY = /^\$\{[A-Z0-9_]+(?:[:?-][^}]*)?\}$/;

/** Secrets written into a file: a secret-named variable with a literal value, or a password inside a URL. */
function inlineSecret(name: string, value: string): string | undefined {
  if (SECRET_NAME.test(name) && value !== '' && !INTERPOLATION_ONLY.test(value))
    return `${name} has a literal value: take it from .env`;
  const password = /^[a-z][a-z0-9+.-]*:\/\/[^/:@]*:([^@]*)@/i.exec(value)?.[1];
  if (password && !INTERPOLATION_ONLY.test(password))
    return `${name} has a password in its URL: take it from .env`;
  return undefined;
}

/** Compose interpolation as `docker compose` resolves it when nothing is set: `${X:-d}` → d, others → a placeholder. */
function withoutInterpolation(value: string): string {
  return value.replace(
    /\$\{[A-Z0-9_]+(?::?-([^}]*)|[^}]*)\}/g,
    (_, fallback?: string) => fallback ?? 'x',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Dockerfile

type TInstruction = { keyword: string; args: string; line: number };
type TStage = { name: string | undefined; base: string; instructions: TInstruction[] };

/** Instructions with line continuations joined and comments dropped, as the Dockerfile frontend reads them. */
function parseDockerfile(text: string): TInstruction[] {
  const out: TInstruction[] = [];
  let current = '';
  let startLine = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line) || (!current && !line.trim())) return;
    if (!current) startLine = i + 1;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      return;
    }
    current += line;
    const m = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(current);
    if (m)
      out.push({ keyword: (m[1] ?? '').toUpperCase(), args: (m[2] ?? '').trim(), line: startLine });
    current = '';
  });
  return out;
}

function substitute(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
    (whole, name: string) => vars[name] ?? whole,
  );
}

function toStages(instructions: TInstruction[]): TStage[] {
  const globalArgs: Record<string, string> = {};
  const stages: TStage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const words = ins.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const asAt = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({
        base: substitute(words[0] ?? '', globalArgs),
        name: asAt > 0 ? words[asAt + 1] : undefined,
        instructions: [],
      });
    } else if (stages.length === 0) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(ins.args);
      if (ins.keyword === 'ARG' && m) globalArgs[m[1] ?? ''] = (m[2] ?? '').replace(/^"|"$/g, '');
    } else {
      stages.at(-1)?.instructions.push(ins);
    }
  }
  return stages;
}

/** JSON (exec) form, or words split on blanks (shell form, good enough for COPY, EXPOSE and VOLUME). */
function argList(args: string): string[] {
  if (args.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(args);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // not JSON: the shell form
    }
  }
  return args.split(/\s+/).filter(Boolean);
}

function envPairs(args: string): [string, string][] {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)].map((m) => [
    m[1] ?? '',
    (m[2] ?? '').replace(/^"|"$/g, ''),
  ]);
}

/** .dockerignore semantics: `**`, `*`, `?`, `!` exceptions, last match wins, a matched directory hides its files. */
function isDockerignored(relPath: string, patterns: string[]): boolean {
  const parts = path.posix
    .normalize(relPath)
    .replace(/^\.?\/+/, '')
    .split('/');
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const glob = path.posix.normalize((negate ? raw.slice(1) : raw).trim()).replace(/^\/+/, '');
    const source = glob
      .split(/(\*\*\/?|\*|\?)/)
      .map((part) => {
        if (part === '**/') return '(?:.*/)?';
        if (part === '**') return '.*';
        if (part === '*') return '[^/]*';
        if (part === '?') return '[^/]';
        return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    const re = new RegExp(`^${source}$`);
    for (let i = 1; i <= parts.length; i++)
      if (re.test(parts.slice(0, i).join('/'))) {
        ignored = !negate;
        break;
      }
  }
  return ignored;
}

function readDockerignore(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

type TDockerfileFacts = { hasHealthcheck: boolean; dataDir: string; problems: string[] };

function checkDockerfile(files: TFiles): TDockerfileFacts {
  const problems: string[] = [];
  const stages = toStages(parseDockerfile(readFileSync(files.dockerfile, 'utf8')));
  const ignore = readDockerignore(files.dockerignore);
  const final = stages.at(-1);
  if (stages.length < 2 || !final) problems.push('the Dockerfile is not multi-stage');
  if (!final) return { hasHealthcheck: false, dataDir: '', problems };

  const all = stages.flatMap((s) => s.instructions);
  // Broken JSON in the exec form silently becomes the shell form, which runs something else.
  for (const ins of all) {
    const execForm = /^(?:--\S+\s+)*(?:CMD\s+)?(\[[\s\S]*)$/.exec(ins.args)?.[1];
    if (!execForm || !['CMD', 'ENTRYPOINT', 'HEALTHCHECK', 'RUN'].includes(ins.keyword)) continue;
    try {
      JSON.parse(execForm);
    } catch {
      problems.push(`line ${ins.line}: ${ins.keyword} looks like the exec form but is not JSON`);
    }
  }
  if (!all.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args)))
    problems.push('no stage installs with `npm ci` (from the lockfile)');
  if (!all.some((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args)))
    problems.push('no stage builds the web app (`npm run build`)');
  if (!/^node:20[.\w-]*-slim$/.test(final.base))
    problems.push(`the runtime stage is ${final.base}, not a slim Node 20 image`);

  stages.forEach((stage, at) => {
    const earlier = new Set(stages.slice(0, at).map((s) => s.name));
    for (const ins of stage.instructions.filter(
      (i) => i.keyword === 'COPY' || i.keyword === 'ADD',
    )) {
      const words = argList(ins.args);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      if (from !== undefined) {
        if (!earlier.has(from) && !from.includes(':'))
          problems.push(`line ${ins.line}: COPY --from=${from} names no earlier stage`);
        continue;
      }
      for (const source of paths.slice(0, -1)) {
        if (/[*?[]/.test(source)) continue;
        if (!existsSync(path.join(ROOT, source)))
          problems.push(`line ${ins.line}: COPY source ${source} does not exist in the repository`);
        else if (isDockerignored(source, ignore))
          problems.push(`line ${ins.line}: COPY source ${source} is excluded by .dockerignore`);
      }
    }
  });

  const of = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword);
  const env: Record<string, string> = {};
  for (const ins of of('ENV'))
    for (const [k, v] of envPairs(ins.args)) {
      env[k] = v;
      if (!isKnownVariable(k)) problems.push(`line ${ins.line}: ENV ${k} is read by nothing`);
    }
  if (env.NODE_ENV !== 'production')
    problems.push('the runtime stage does not set NODE_ENV=production');

  const user = of('USER').at(-1)?.args.split(':')[0];
  if (!user || user === 'root' || user === '0')
    problems.push('the runtime stage runs as root (no USER)');

  const healthcheck = of('HEALTHCHECK').at(-1);
  const hasHealthcheck = Boolean(healthcheck && !/^NONE\b/i.test(healthcheck.args));
  if (!hasHealthcheck || !healthcheck?.args.includes('/health'))
    problems.push('the runtime stage has no HEALTHCHECK on /health');

  const defaults = parseEnv(env);
  const exposed = new Set(
    of('EXPOSE').flatMap((i) => argList(i.args).map((p) => Number(p.split('/')[0]))),
  );
  for (const [name, port] of [
    ['PORT', defaults.PORT],
    ['GATEWAY_PORT', defaults.GATEWAY_PORT],
  ] as const)
    if (!exposed.has(port)) problems.push(`EXPOSE lacks ${name} ${port}`);

  const workdir = of('WORKDIR').at(-1)?.args ?? '/';
  const dataDir = path.posix.resolve(workdir, defaults.DATA_DIR);
  const volumes = of('VOLUME').flatMap((i) => argList(i.args));
  if (!volumes.some((v) => path.posix.resolve(workdir, v) === dataDir))
    problems.push(`DATA_DIR ${dataDir} is not a VOLUME`);

  const cmd = of('CMD').at(-1);
  const command = cmd ? argList(cmd.args) : [];
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const npmScript =
    command[0] === 'npm' ? (command[1] === 'run' ? command[2] : command[1]) : undefined;
  const isScript =
    npmScript !== undefined
      ? npmScript in scripts
      : Object.values(scripts).includes(command.join(' '));
  if (!isScript) problems.push(`CMD ${command.join(' ') || '(none)'} is no package.json script`);
  for (const arg of command.filter((a) => /\.(ts|js|mjs|cjs)$/.test(a)))
    if (
      !existsSync(path.join(ROOT, path.posix.relative(workdir, path.posix.resolve(workdir, arg))))
    )
      problems.push(`CMD runs ${arg}, which does not exist`);

  return { hasHealthcheck, dataDir, problems };
}

// ---------------------------------------------------------------------------------------------------------------
// docker-compose.yml

type TService = {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: unknown;
  environment?: Record<string, unknown> | string[];
  env_file?: unknown;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: unknown; disable?: boolean };
  deploy?: { replicas?: number };
  volumes?: (string | { type?: string; source?: string; target?: string })[];
};
type TCompose = { services?: Record<string, TService>; volumes?: Record<string, unknown> };

function environmentOf(service: TService): Record<string, string> {
  const raw = service.environment ?? {};
  if (Array.isArray(raw))
    return Object.fromEntries(
      raw.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v == null ? '' : String(v)]));
}

function buildsThisRepo(service: TService, composeDir: string): boolean {
  if (service.build === undefined) return false;
  const context =
    typeof service.build === 'string' ? service.build : (service.build.context ?? '.');
  const dockerfile =
    typeof service.build === 'string' ? 'Dockerfile' : (service.build.dockerfile ?? 'Dockerfile');
  return path.resolve(composeDir, context) === ROOT && dockerfile === 'Dockerfile';
}

function checkCompose(files: TFiles, dockerfile: TDockerfileFacts): string[] {
  const problems: string[] = [];
  let compose: TCompose;
  try {
    compose = loadYaml(readFileSync(files.compose, 'utf8'), { merge: true }) as TCompose;
  } catch (err) {
    return [`docker-compose.yml is not YAML: ${(err as Error).message}`];
  }
  // The file belongs at the repository's root: `build: .` is resolved from there, wherever this copy lies.
  const composeDir = ROOT;
  const services = compose.services ?? {};
  const byImage = (prefix: string) =>
    Object.keys(services).filter((n) => services[n]?.image?.startsWith(prefix));
  const [postgres, ...morePostgres] = byImage('postgres:');
  const [redis, ...moreRedis] = byImage('redis:');
  if (!postgres || morePostgres.length) problems.push('there must be one postgres service');
  if (!redis || moreRedis.length) problems.push('there must be one redis service');

  const apps: [string, TService, Record<string, string>][] = [];
  for (const [name, service] of Object.entries(services)) {
    const isRepoImage = buildsThisRepo(service, composeDir);
    if (!service.image && service.build === undefined)
      problems.push(`${name}: neither image nor build`);
    if (service.build !== undefined && !isRepoImage)
      problems.push(`${name}: builds something other than the repository's Dockerfile`);
    const hasHealthcheck =
      (service.healthcheck?.test !== undefined && service.healthcheck.disable !== true) ||
      (isRepoImage && service.command === undefined && dockerfile.hasHealthcheck);
    if (!hasHealthcheck) problems.push(`${name}: no healthcheck`);

    const dependsOn = service.depends_on ?? {};
    if (Array.isArray(dependsOn))
      problems.push(`${name}: depends_on without conditions (use condition: service_healthy)`);
    else
      for (const [other, { condition } = {}] of Object.entries(dependsOn)) {
        if (!(other in services))
          problems.push(`${name}: depends_on ${other}, which is no service`);
        if (condition !== 'service_healthy' && condition !== 'service_completed_successfully')
          problems.push(`${name}: depends_on ${other} without condition service_healthy`);
      }

    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      const isNamed = source && !/^[./~$]/.test(source);
      if (isNamed && !(source in (compose.volumes ?? {})))
        problems.push(`${name}: volume ${source} is not declared under volumes`);
    }

    const env = environmentOf(service);
    for (const [key, value] of Object.entries(env)) {
      const secret = inlineSecret(key, value);
      if (secret) problems.push(`${name}: ${secret}`);
    }
    // The product's own processes: the image with its default command.
    if (isRepoImage && service.command === undefined) apps.push([name, service, env]);
  }
  if (postgres && !services[postgres]?.volumes?.length)
    problems.push('postgres: no volume for its data');
  if (redis && !services[redis]?.volumes?.length) problems.push('redis: no volume for its data');

  let consoles = 0;
  let gateways = 0;
  const runsSweep = { DN_SWEEP: 0, DEPOSIT_WATCHER: 0 };
  for (const [name, service, env] of apps) {
    for (const key of Object.keys(env))
      if (!isKnownVariable(key))
        problems.push(`${name}: ${key} is read by nothing (apps/server/src/env.ts)`);
    let parsed: ReturnType<typeof parseEnv> | undefined;
    try {
      parsed = parseEnv(
        Object.fromEntries(Object.entries(env).map(([k, v]) => [k, withoutInterpolation(v)])),
      );
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message.replace(/\n\s*/g, ' ')}`);
    }
    if (!parsed) continue;
    const replicas = service.deploy?.replicas ?? 1;
    if (!parsed.DATABASE_URL || new URL(parsed.DATABASE_URL).hostname !== postgres)
      problems.push(
        `${name}: DATABASE_URL does not point at the ${postgres ?? 'postgres'} service`,
      );
    if (!parsed.REDIS_URL || new URL(parsed.REDIS_URL).hostname !== redis)
      problems.push(`${name}: REDIS_URL does not point at the ${redis ?? 'redis'} service`);
    if (!service.env_file)
      problems.push(`${name}: no env_file for API_KEY_SECRET and the other secrets`);
    const dependsOn = Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {});
    for (const needed of [postgres, redis])
      if (needed && !(needed in dependsOn)) problems.push(`${name}: does not depend on ${needed}`);

    if (parsed.ROLE !== 'gateway') {
      consoles += replicas;
      if (parsed.DN_SWEEP) runsSweep.DN_SWEEP += replicas;
      if (parsed.DEPOSIT_WATCHER) runsSweep.DEPOSIT_WATCHER += replicas;
    }
    if (parsed.ROLE !== 'console') {
      gateways += replicas;
      if (replicas > 1 && parsed.LOCALNET)
        problems.push(
          `${name}: ${replicas} gateways would each start their own localnet (LOCALNET=false)`,
        );
      // The journal's LOCK tells processes apart by host name, so replicas sharing one volume would not be refused.
      const sharesJournal = (service.volumes ?? []).some((v) => {
        const [source, target] = typeof v === 'string' ? v.split(':') : [v.source, v.target];
        return source && target && path.posix.resolve('/app', target) === dockerfile.dataDir;
      });
      if (replicas > 1 && sharesJournal)
        problems.push(
          `${name}: its ${replicas} replicas would share one usage journal volume on DATA_DIR`,
        );
    }
  }
  if (consoles < 1) problems.push('no service runs the console');
  if (gateways < 2) problems.push(`${gateways} gateway processes: scale mode runs several`);
  for (const [key, count] of Object.entries(runsSweep))
    if (count !== 1) problems.push(`${count} console processes run ${key}: exactly one must`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// .env.example

function checkEnvExample(files: TFiles): string[] {
  const problems: string[] = [];
  const composeText = readFileSync(files.compose, 'utf8');
  const interpolated = new Set(
    [...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1] ?? ''),
  );
  const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+):?\?/g)].map((m) => m[1] ?? '');
  const entries = readFileSync(files.envExample, 'utf8')
    .split('\n')
    .map((line) => /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((m) => m !== null)
    .map((m) => ({ name: m[2] ?? '', value: m[3] ?? '' }));
  const names = new Set(entries.map((e) => e.name));
  for (const { name, value } of entries) {
    if (!isKnownVariable(name) && !interpolated.has(name))
      problems.push(`.env.example: ${name} is read by nothing`);
    if (SECRET_NAME.test(name) && value !== '') problems.push(`.env.example: ${name} has a value`);
  }
  for (const name of new Set([...required, 'API_KEY_SECRET']))
    if (!names.has(name)) problems.push(`.env.example: ${name} is required but missing`);
  return problems;
}

function checkAll(files: TFiles): string[] {
  const dockerfile = checkDockerfile(files);
  return [...dockerfile.problems, ...checkCompose(files, dockerfile), ...checkEnvExample(files)];
}

// ---------------------------------------------------------------------------------------------------------------

describe('container files (lint)', () => {
  it('the Dockerfile, docker-compose.yml and .env.example agree with the code', () => {
    expect(checkAll(REPO_FILES)).toEqual([]);
  });

  it('reads .dockerignore as Docker does', () => {
    const patterns = ['**/node_modules', 'docs', 'apps/*/test', '**/*.test.ts', '!keep.test.ts'];
    expect(isDockerignored('apps/server/node_modules/x', patterns)).toBe(true);
    expect(isDockerignored('node_modules', patterns)).toBe(true);
    expect(isDockerignored('docs/scale-mode.md', patterns)).toBe(true);
    expect(isDockerignored('apps/server/test/a.ts', patterns)).toBe(true);
    expect(isDockerignored('apps/server/src/env.unit.test.ts', patterns)).toBe(true);
    expect(isDockerignored('keep.test.ts', patterns)).toBe(false);
    expect(isDockerignored('apps/server/src/env.ts', patterns)).toBe(false);
    expect(isDockerignored('apps/server', patterns)).toBe(false);
  });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'container-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the repository's files with one of them broken, in a temporary directory. */
  function broken(file: keyof TFiles, breakText: (text: string) => string): TFiles {
    const copy = path.join(dir, `${file}-${Math.random().toString(36).slice(2)}`);
    const text = readFileSync(REPO_FILES[file], 'utf8');
    const changed = breakText(text);
    if (changed === text) throw new Error(`the change to ${file} changed nothing`);
    writeFileSync(copy, changed);
    return { ...REPO_FILES, [file]: copy };
  }
  function compose(change: (services: Record<string, TService>) => void): (text: string) => string {
    return (text) => {
      const parsed = loadYaml(text, { merge: true }) as TCompose;
      change(parsed.services ?? {});
      return dumpYaml(parsed);
    };
  }
  const replace = (from: string | RegExp, to: string) => (text: string) => text.replace(from, to);

  it.each<[string, keyof TFiles, (text: string) => string, RegExp]>([
    ['the image runs as root', 'dockerfile', replace(/^USER node\n/m, ''), /runs as root/],
    [
      'a COPY source moved',
      'dockerfile',
      replace('COPY apps/server ', 'COPY apps/srv '),
      /apps\/srv does not exist/,
    ],
    [
      'a COPY source is ignored',
      'dockerfile',
      replace('COPY packages ./packages', 'COPY docs ./docs'),
      /docs is excluded/,
    ],
    [
      'the CMD runs no script',
      'dockerfile',
      replace('src/main.ts"]', 'src/start.ts"]'),
      /is no package.json script/,
    ],
    [
      'no HEALTHCHECK',
      'dockerfile',
      replace(/^HEALTHCHECK[^\n]*\\\n[^\n]*\n/m, ''),
      /no HEALTHCHECK/,
    ],
    [
      'the exec form is not JSON',
      'dockerfile',
      replace('"apps/server/src/main.ts"]', "'apps/server/src/main.ts']"),
      /CMD looks like the exec form but is not JSON/,
    ],
    [
      'the gateway port is not exposed',
      'dockerfile',
      replace('EXPOSE 3000 3001', 'EXPOSE 3000'),
      /EXPOSE lacks GATEWAY_PORT 3001/,
    ],
    [
      'the data dir is no volume',
      'dockerfile',
      replace('VOLUME ["/app/data"]', 'VOLUME ["/data"]'),
      /is not a VOLUME/,
    ],
    [
      'two consoles sweep',
      'compose',
      compose(
        (s) =>
          (s['console-api']!.environment = {
            ...environmentOf(s['console-api']!),
            DN_SWEEP: 'true',
          }),
      ),
      /2 console processes run DN_SWEEP/,
    ],
    [
      'an unknown variable',
      'compose',
      compose(
        (s) => (s.gateway!.environment = { ...environmentOf(s.gateway!), GATEWAY_THREADS: '4' }),
      ),
      /GATEWAY_THREADS is read by nothing/,
    ],
    [
      'a bad value',
      'compose',
      compose((s) => (s.gateway!.environment = { ...environmentOf(s.gateway!), ROLE: 'worker' })),
      /gateway: Invalid environment: ROLE/,
    ],
    [
      'a secret inline',
      'compose',
      compose(
        (s) =>
          (s.console!.environment = {
            ...environmentOf(s.console!),
            API_KEY_SECRET: 'a'.repeat(40),
          }),
      ),
      /console: API_KEY_SECRET has a literal value/,
    ],
    [
      'a password inline',
      'compose',
      compose(
        (s) =>
          (s.console!.environment = {
            ...environmentOf(s.console!),
            DATABASE_URL: 'postgres://console:hunter2@postgres:5432/console',
          }),
      ),
      /console: DATABASE_URL has a password in its URL/,
    ],
    [
      'depends_on without health',
      'compose',
      compose((s) => (s.console!.depends_on = ['postgres', 'redis'])),
      /console: depends_on without conditions/,
    ],
    [
      'redis without healthcheck',
      'compose',
      compose((s) => delete s.redis!.healthcheck),
      /redis: no healthcheck/,
    ],
    [
      'gateways share a journal',
      'compose',
      compose((s) => (s.gateway!.volumes = ['/srv/rpc:/app/data'])),
      /gateway: its 3 replicas would share one usage journal/,
    ],
    [
      'one gateway',
      'compose',
      compose((s) => (s.gateway!.deploy = { replicas: 1 })),
      /1 gateway processes/,
    ],
    [
      'a secret in the example',
      'envExample',
      replace(/^API_KEY_SECRET=$/m, 'API_KEY_SECRET=abc'),
      /API_KEY_SECRET has a value/,
    ],
    [
      'an unknown variable in the example',
      'envExample',
      (t) => `${t}API_SECRET=\n`,
      /API_SECRET is read by nothing/,
    ],
  ])('fails when %s', (_, file, breakText, problem) => {
    const problems = checkAll(broken(file, breakText));
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n') || '(no problem found)',
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------

function run(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs: number },
) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: opts.timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}`.slice(-6000),
  };
}

const hasDockerDaemon = run('docker', ['info', '--format', '{{.ServerVersion}}'], {
  timeoutMs: 15_000,
}).ok;
const hasCompose =
  hasDockerDaemon && run('docker', ['compose', 'version'], { timeoutMs: 15_000 }).ok;
const BUILD_TIMEOUT_MS = 30 * 60_000;

describe.runIf(hasDockerDaemon)('container files (Docker)', () => {
  it(
    'the image builds',
    () => {
      const { ok, output } = run('docker', ['build', '--tag', 'rpc-console:check', '.'], {
        env: { DOCKER_BUILDKIT: '1' },
        timeoutMs: BUILD_TIMEOUT_MS,
      });
      expect(ok, output).toBe(true);
    },
    BUILD_TIMEOUT_MS,
  );

  it.runIf(hasCompose)('docker compose resolves the file', () => {
    // Only for resolving: the required variables get placeholders, no .env is read.
    const { ok, output } = run(
      'docker',
      ['compose', '--file', 'docker-compose.yml', 'config', '--quiet'],
      {
        env: { POSTGRES_PASSWORD: 'placeholder-for-config-only' },
        timeoutMs: 60_000,
      },
    );
    expect(ok, output).toBe(true);
  });
});
