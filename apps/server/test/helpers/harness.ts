/** One console server per database for a test file, called in-process through the dispatcher (createCaller style). */
import { createHash, randomBytes } from 'node:crypto';
import {
  PASSWORD_HASH_PREFIX,
  type TMethodName,
  type TParamsIn,
  type TResult,
  type TRpcError,
} from '@rpc/contract';
import type { TOpenedDatabase } from '@rpc/db';
import pino from 'pino';
import { TEST_ARGON2_COST } from '../../src/lib/password';
import { createContext } from '../../src/rpc/context';
import { dispatch } from '../../src/rpc/dispatcher';
import { createServer, type TConsoleServer, type TCreateServerOptions } from '../../src/server';
import { linkOf, startSmtpCapture, type TSmtpCapture } from './smtp';

/** Fixed, so a database a bench leaves in place opens again; tests of the secret itself pass their own. */
export const TEST_API_KEY_SECRET = 'test-only-api-key-secret-0123456789abcdef';

export type TTestClock = { now: () => number; advance: (ms: number) => void };

export function createTestClock(start = Date.now()): TTestClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** What the browser sends: md5(prefix + password) (SPEC §5). */
export function digest(password: string): string {
  return createHash('md5')
    .update(PASSWORD_HASH_PREFIX + password)
    .digest('hex');
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A random address per call, so per-IP limits only bite in the tests that aim at them. */
export function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export type TCallOptions = { token?: string | null; teamId?: string | null; ip?: string };
export type TCallResult<N extends TMethodName> =
  | { ok: true; result: TResult<N>; error?: undefined }
  | { ok: false; error: TRpcError; result?: undefined };

export type THarness = {
  server: TConsoleServer;
  smtp: TSmtpCapture;
  clock: TTestClock;
  database: TOpenedDatabase;
  /** Calls a method with typed params. */
  call: <N extends TMethodName>(
    method: N,
    params?: TParamsIn<N>,
    opts?: TCallOptions,
  ) => Promise<TCallResult<N>>;
  /** Calls with any body at all (for envelope and hostile-input tests). */
  raw: (
    body: unknown,
    opts?: TCallOptions,
  ) => Promise<{ result?: unknown; error?: TRpcError; id: unknown }>;
  /** Registers, confirms through the mailed link and logs in. */
  signUp: (opts?: {
    password?: string;
    language?: 'en' | 'zh';
  }) => Promise<{ email: string; password: string; token: string }>;
  close: () => Promise<void>;
};

export async function createHarness(
  openDb: () => Promise<TOpenedDatabase>,
  extra: Partial<TCreateServerOptions> = {},
): Promise<THarness> {
  const database = await openDb();
  const smtp = await startSmtpCapture();
  const clock = createTestClock();
  const server = await createServer({
    db: database.db,
    clock,
    argon2Cost: TEST_ARGON2_COST,
    logger: pino({ level: 'silent' }),
    webDistDir: '/nonexistent',
    ...extra,
    // Added to, not replacing, the test defaults (the capture SMTP server above in particular).
    env: {
      PORT: 0,
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://console.test',
      GATEWAY_PUBLIC_URL: 'http://gw.test',
      API_KEY_SECRET: TEST_API_KEY_SECRET,
      ...extra.env,
    },
  });

  const raw: THarness['raw'] = async (body, opts = {}) => {
    const ctx = createContext(server.deps, {
      ip: opts.ip ?? randomIp(),
      token: opts.token ?? null,
      teamId: opts.teamId ?? null,
      requestId: 'test',
    });
    return (await dispatch(ctx, body)) as { result?: unknown; error?: TRpcError; id: unknown };
  };

  const call: THarness['call'] = async (method, params, opts) => {
    const res = await raw({ method, params, id: 1 }, opts);
    return res.error
      ? { ok: false, error: res.error }
      : ({ ok: true, result: res.result } as never);
  };

  const signUp: THarness['signUp'] = async (o = {}) => {
    const email = uniqueEmail();
    const password = o.password ?? 'correct horse';
    const reg = await call('hub_register', {
      email,
      password: digest(password),
      confirmPassword: digest(password),
      ...(o.language ? { language: o.language } : {}),
    });
    if (!reg.ok) throw new Error(`register failed: ${JSON.stringify(reg.error)}`);
    const code = linkOf(await smtp.nextMailTo(email)).searchParams.get('code')!;
    const confirmed = await call('hub_emailConfirm', { code });
    if (!confirmed.ok) throw new Error(`confirm failed: ${JSON.stringify(confirmed.error)}`);
    const login = await call('hub_login', { email, password: digest(password) });
    if (!login.ok) throw new Error(`login failed: ${JSON.stringify(login.error)}`);
    return { email, password, token: login.result.token };
  };

  return {
    server,
    smtp,
    clock,
    database,
    call,
    raw,
    signUp,
    close: async () => {
      await server.stop();
      await smtp.close();
      await database.close();
    },
  };
}
