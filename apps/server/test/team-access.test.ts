/**
 * Team access (issue 13) on each database, over the whole method catalogue (METHODS, so a method added later is
 * checked without touching this file):
 *
 * 1. Method × role: for every signed-in method and every role of one team, the dispatcher refuses with exactly
 *    10302 what the role's permissions (ROLE_PERMISSIONS) lack, and lets the rest reach the handler (never 10301 or
 *    10302). A personal login is never refused with 10302; methods that ignore X-Team-Id act as personal.
 * 2. Cross-team and cross-account attempts: the members of team A (every role) and a plain user aim every
 *    id-taking method, with valid params, at the objects of team B and of a personal account P (keys, team,
 *    invitation, members, packages, invoices, exports, deposits, card orders, saved cards — with a fake Stripe —
 *    and dedicated nodes), and every header method at X-Team-Id B / P. Attempts and leaks are counted (0 leaks),
 *    and B's and P's state read back from the database (and Stripe) equals the snapshot taken before.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  METHODS,
  SIGN_IN_METHODS,
  TEAM_ROLES,
  roleAllows,
  type TMethodDef,
} from '@rpc/contract';
import {
  accountMembers,
  accounts,
  apiKeys,
  cardOrders,
  dedicatedNodeEvents,
  dedicatedNodeOrders,
  dedicatedNodes,
  deposits,
  exportJobs,
  invoiceConfigs,
  invoices,
  moneyLedger,
  notices,
  purchases,
  ruPackages,
  spendLimits,
  stripeCustomers,
  teamAuditLogs,
  sessions,
  teamInvites,
  users,
  type TDatabase,
} from '@rpc/db';
import { eq, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRequestLogBatch } from '../src/services/request-logs/write-request-log-batch';
import { postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { startFakeStripe, type TFakeStripe } from './helpers/fake-stripe';
import { createHarness, digest, uniqueEmail, type THarness } from './helpers/harness';

type TUserMethod = Extract<TMethodDef, { auth: 'user' }>;
type TAnswer = { result?: unknown; error?: { code: number; message?: string } };

const HOUR = 3_600_000;
const ALL_METHODS = Object.values(METHODS as unknown as Record<string, TMethodDef>);
const USER_METHODS = ALL_METHODS.filter((d): d is TUserMethod => d.auth === 'user');
/** Destructive on the allowed side: checked below in a targeted way, never with the table's generic call. */
const DESTRUCTIVE = new Set([
  'hub_logout',
  'hub_deleteTeam',
  'hub_leaveTeam',
  'hub_removeMember',
  'hub_setMemberRole',
  'hub_revokeOtherSessions',
]);
/** Answers that show the call never reached a handler: membership or role refused by the dispatcher. */
const DISPATCHER_REFUSALS = new Set<number>([
  ERROR_CODES.TEAM_FORBIDDEN,
  ERROR_CODES.TEAM_ROLE_FORBIDDEN,
]);
/** Answers that show the attempt itself was wrong (our params) or the server broke: never acceptable here. */
const ANOMALIES = new Set<number>([
  ERROR_CODES.INVALID_PARAMS,
  ERROR_CODES.INVALID_REQUEST,
  ERROR_CODES.METHOD_NOT_FOUND,
  ERROR_CODES.INTERNAL_ERROR,
  ERROR_CODES.SESSION_MISSING,
  ERROR_CODES.SESSION_EXPIRED,
  ERROR_CODES.SESSION_REVOKED,
]);

/** The keys of a method's params object, through zod v4 wrappers (pipe, default, optional, …). */
function paramKeys(schema: unknown): string[] {
  type TNode = { shape?: Record<string, unknown>; _zod?: { def?: Record<string, unknown> } };
  let node = schema as TNode | undefined;
  for (let depth = 0; depth < 10 && node; depth += 1) {
    if (node.shape && typeof node.shape === 'object') return Object.keys(node.shape);
    const def = node._zod?.def;
    node = (def?.in ?? def?.innerType ?? def?.schema) as TNode | undefined;
  }
  throw new Error('params schema without an object shape');
}

/** Params ending in "Id" that name no account's object: a catalogue entry, a company's tax number. */
const NOT_OBJECT_IDS = new Set(['skuId', 'taxId']);
/** A param that names an object of some account. */
const isIdKey = (k: string) => k === 'id' || (k.endsWith('Id') && !NOT_OBJECT_IDS.has(k));
/** Money reports share the report params but cover the whole account: any keyId is refused as invalid (10004). */
const KEYLESS_REPORTS = new Set(['hub_reportUserPurchase', 'hub_reportUserDeposit']);
const idKeysOf = (def: TMethodDef) => paramKeys(def.params).filter(isIdKey);

/** The ids a call may carry; which ones a method takes comes from its params shape. */
type TIds = {
  teamId: string;
  keyId: string;
  inviteId: string;
  userId: string;
  actorUserId?: string;
  packageId: string;
  invoiceId: string;
  exportId: string;
  id: string;
  orderId: string;
  nodeId: string;
  cardId?: string;
  sessionId?: string;
};

const idem = () => randomUUID().replaceAll('-', '');
const DN_TERMS = {
  chain: 'localnet',
  nodeType: 'full',
  region: 'local',
  months: 1,
  expectedCents: 500,
};

/** Valid params besides the ids, per method; a method missing here that needs more answers 10004 and fails. */
const OTHER_PARAMS: Record<string, () => Record<string, unknown>> = {
  hub_changePassword: () => ({
    oldPassword: digest('not the password'),
    password: digest('probe password 1'),
    confirmPassword: digest('probe password 1'),
  }),
  hub_setUserNickname: () => ({ nickname: 'Probe' }),
  hub_changeUserLang: () => ({ lang: 'en' }),
  hub_setRechargeTips: () => ({ rechargeTips: 1 }),
  hub_generateApiKey: () => ({ name: 'probe key' }),
  hub_setApiKeyName: () => ({ name: 'renamed by probe' }),
  hub_updateApiKey: () => ({ paused: true, allowlists: { ips: ['192.0.2.1'] } }),
  hub_setApiKeyAdvancedFeatures: () => ({ feature: 'archive_mode', enabled: true }),
  hub_setApiKeyMev: () => ({ mev: 'auto' }),
  hub_setApiKeyBundler: () => ({ bundler: 'pimlico' }),
  hub_setUserMessageRead: () => ({ type: 'deposit' }),
  hub_setUserEmailConfig: () => ({ types: [] }),
  hub_skuFirstConfirm: () => ({ skuId: 'standard-100m' }),
  hub_buyPackage: () => ({ skuId: 'standard-100m', idempotencyKey: idem() }),
  hub_getFreeSkuBuyFreeType: () => ({ skuId: 'free-monthly' }),
  hub_setUserAutoRenew: () => ({ autoRenew: false }),
  hub_setUserDiscountCode: () => ({ code: 'NOPE-1234' }),
  hub_setSpendLimits: () => ({
    monthlyRuCap: null,
    monthlyCentsCap: null,
    action: 'alert',
    alertPercents: [],
  }),
  hub_getDepositAddress: () => ({ chain: 'localnet' }),
  hub_getInvoicePreviewCode: () => ({ revoke: true }),
  hub_getInvoicePdf: () => ({ language: 'en' }),
  hub_skuFirstConfirmCard: () => ({ skuId: 'standard-100m' }),
  hub_buyPackageByCard: () => ({ skuId: 'standard-100m', idempotencyKey: idem() }),
  hub_createStripeOrder: () => ({ amountCents: 500, idempotencyKey: idem() }),
  hub_setAutoRenewByCard: () => ({ byCard: true }),
  // Dedicated nodes: a localnet full node for a month at the catalogue's price (config/dn-skus.json).
  hub_buyDnNodeByWallet: () => ({ ...DN_TERMS, idempotencyKey: idem() }),
  hub_buyDnNodeByCard: () => ({ ...DN_TERMS, idempotencyKey: idem() }),
  hub_renewDnNodeByWallet: () => ({ months: 1, expectedCents: 500, idempotencyKey: idem() }),
  hub_renewDnNodeByCard: () => ({ months: 1, expectedCents: 500, idempotencyKey: idem() }),
  hub_createTeam: () => ({ teamName: 'Side team' }),
  hub_editTeamName: () => ({ teamName: 'Renamed by probe' }),
  hub_editTeamNote: () => ({ note: 'note by probe' }),
  hub_addMember: () => ({ email: uniqueEmail('probe'), role: 'viewer' }),
  hub_setMemberRole: () => ({ role: 'admin' }),
  // Sign-in methods: well-formed attempts the handlers refuse on their merits (no such provider, not a SIWE message,
  // no code mailed, two-factor off), which is all a probe of access needs.
  hub_bindMetamask: () => ({ message: 'not a SIWE message', signature: `0x${'ab'.repeat(65)}` }),
  hub_getOauthBindUrl: () => ({ provider: 'probe' }),
  hub_bindOauth: () => ({ provider: 'probe', code: 'probe-code', state: 'p'.repeat(43) }),
  hub_unbindOauth: () => ({ provider: 'probe' }),
  hub_preBindEmail: () => ({ email: uniqueEmail('probe') }),
  hub_sendBindConfirmMail: () => ({ email: uniqueEmail('probe') }),
  hub_bindEmail: () => ({
    email: uniqueEmail('probe'),
    code: '123456',
    password: digest('probe password 1'),
    confirmPassword: digest('probe password 1'),
  }),
  hub_enableTwoFactor: () => ({ code: '123456' }),
  hub_disableTwoFactor: () => ({ code: '123456' }),
  hub_regenerateBackupCodes: () => ({ code: '123456' }),
  hub_verifyTwoFactorLogin: () => ({ code: '123456' }),
  // An id no session has (the cross-account test puts the victims' own session ids in its place).
  hub_revokeSession: () => ({ sessionId: randomUUID() }),
};

/** Valid params of any signed-in method: its other params plus the ids its shape takes (those given). */
function validParams(def: TMethodDef, ids: TIds, now: number): Record<string, unknown> {
  const keys = paramKeys(def.params);
  const params: Record<string, unknown> = def.name.startsWith('hub_report')
    ? {
        from: now - 2 * HOUR,
        to: now,
        bucket: 'hour',
        ...(keys.includes('scope') && !KEYLESS_REPORTS.has(def.name) ? { scope: 'apikey' } : {}),
      }
    : (OTHER_PARAMS[def.name]?.() ?? {});
  for (const k of keys.filter(isIdKey)) {
    if (k === 'keyId' && KEYLESS_REPORTS.has(def.name)) continue;
    const v = (ids as Record<string, string | undefined>)[k];
    if (v !== undefined) params[k] = v;
  }
  return params;
}

describe.each(TEST_DATABASES)('team access on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  let fake: TFakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
    h = await createHarness(open, {
      env: {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.url,
      },
    });
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

  async function call(
    method: string,
    params: unknown,
    o: { token: string; teamId?: string | null },
  ): Promise<TAnswer> {
    const res = await h.raw(
      { method, params, id: 1 },
      { token: o.token, teamId: o.teamId ?? null },
    );
    return res as TAnswer;
  }

  async function ok<T = Record<string, unknown>>(
    method: string,
    params: unknown,
    o: { token: string; teamId?: string | null },
  ): Promise<T> {
    const res = await call(method, params, o);
    if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
    return res.result as T;
  }

  async function newTeam(owner: TUser, teamName: string): Promise<string> {
    return (await ok<{ teamId: string }>('hub_createTeam', { teamName }, owner)).teamId;
  }

  async function join(owner: TUser, teamId: string, who: TUser, role: string) {
    const invite = await ok<{ inviteId: string }>(
      'hub_addMember',
      { teamId, email: who.email, role },
      owner,
    );
    await ok('hub_approveInvite', { inviteId: invite.inviteId }, who);
  }

  /** A second session of the same user, to be signed out without touching the first. */
  async function throwawayToken(u: TUser): Promise<string> {
    const login = await h.call('hub_login', { email: u.email, password: digest(u.password) });
    if (!login.ok) throw new Error(JSON.stringify(login.error));
    return login.result.token;
  }

  async function credit(accountId: string, cents: number) {
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId,
        delta: cents,
        kind: 'deposit',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
  }

  /** What the browser does with Stripe.js: a SetupIntent confirmed with a card at the (fake) Stripe. */
  async function saveCard(as: { token: string; teamId?: string | null }) {
    const setup = await ok<{ setupIntentId: string; clientSecret: string }>(
      'hub_createStripeSetup',
      {},
      as,
    );
    const res = await fake.confirmSetup(setup);
    expect(res.status).toBe(200);
    const list = await ok<{ list: Array<{ id: string }> }>('hub_getCreditCardList', {}, as);
    expect(list.list).toHaveLength(1);
    return list.list[0]!.id;
  }

  // The cast: four members of one team (o created it), a victim team's owner and viewer, a personal victim p, and a
  // plain user u. Signed up once; part 1 uses team T, part 2 a separate team A of the same four.
  let o: TUser, a: TUser, b: TUser, v: TUser, oB: TUser, vB: TUser, p: TUser, u: TUser;
  beforeAll(async () => {
    [o, a, b, v, oB, vB, p, u] = (await Promise.all(Array.from({ length: 8 }, () => user()))) as [
      TUser,
      TUser,
      TUser,
      TUser,
      TUser,
      TUser,
      TUser,
      TUser,
    ];
  });

  it('method × role: the contract permission decides, the dispatcher refuses exactly 10302, nothing else', async () => {
    const teamId = await newTeam(o, 'Role table');
    await join(o, teamId, a, 'admin');
    await join(o, teamId, b, 'billing');
    await join(o, teamId, v, 'viewer');
    const members = { owner: o, admin: a, billing: b, viewer: v } as const;
    const ids: TIds = {
      teamId,
      keyId: randomUUID(),
      inviteId: randomUUID(),
      userId: randomUUID(),
      packageId: randomUUID(),
      invoiceId: randomUUID(),
      exportId: randomUUID(),
      id: randomUUID(),
      orderId: randomUUID(),
      nodeId: randomUUID(),
      cardId: 'pm_probe_missing',
    };

    let cells = 0;
    const wrong: string[] = [];
    const deferred: Array<() => Promise<void>> = [];
    for (const def of USER_METHODS) {
      for (const role of TEAM_ROLES) {
        const m = members[role];
        const allowed = roleAllows(role, def.permission);
        const params = validParams(def, ids, h.clock.now());
        cells += 1;
        if (allowed && DESTRUCTIVE.has(def.name)) {
          const run = () => destructiveAllowed(def.name, role, m, teamId);
          // The disband goes last whatever the catalogue order: every other deferred cell needs the team.
          if (def.name === 'hub_deleteTeam') deferred.push(run);
          else deferred.unshift(run);
          continue;
        }
        const res = await call(def.name, params, { token: m.token, teamId });
        const code = res.error?.code;
        const cell = `${def.name} as ${role} (${def.permission}): ${JSON.stringify(res.error ?? 'ok')}`;
        if (!allowed && code !== ERROR_CODES.TEAM_ROLE_FORBIDDEN)
          wrong.push(`not refused: ${cell}`);
        if (allowed && code !== undefined && (DISPATCHER_REFUSALS.has(code) || ANOMALIES.has(code)))
          wrong.push(`allowed but answered: ${cell}`);
      }
    }
    // Destructive cells last (the owner's disband at the very end), each with its own assertion.
    for (const run of deferred) await run();
    console.info(
      `[team-access] method × role cells checked: ${cells} (${USER_METHODS.length} methods × ${TEAM_ROLES.length} roles)`,
    );
    expect(wrong).toEqual([]);
    expect(cells).toBe(USER_METHODS.length * TEAM_ROLES.length);
    const [gone] = await db.select().from(accounts).where(eq(accounts.id, teamId));
    expect(gone!.disbandedAt).not.toBeNull();
  });

  /** The allowed side of the destructive methods, aimed so each is checked without breaking the table. */
  async function destructiveAllowed(method: string, role: string, m: TUser, teamId: string) {
    const as = { token: m.token, teamId };
    const label = `${method} as ${role}`;
    if (method === 'hub_logout') {
      // A second session, signed out with X-Team-Id set: that session ends, the member's first one does not.
      const token = await throwawayToken(m);
      expect((await call(method, {}, { token, teamId })).result, label).toEqual({ success: true });
      expect((await call('hub_getUserProfile', {}, { token })).error?.code, label).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      expect((await call('hub_getUserProfile', {}, as)).error, label).toBeUndefined();
    } else if (method === 'hub_removeMember') {
      // Past the dispatcher: a user who is not a member is not found.
      const res = await call(method, { teamId, userId: randomUUID() }, as);
      expect(res.error?.code, label).toBe(ERROR_CODES.NOT_FOUND);
    } else if (method === 'hub_setMemberRole') {
      const res = await call(method, { teamId, userId: randomUUID(), role: 'viewer' }, as);
      expect(res.error?.code, label).toBe(ERROR_CODES.NOT_FOUND);
    } else if (method === 'hub_leaveTeam') {
      if (role === 'owner') {
        expect((await call(method, { teamId }, as)).error?.code, label).toBe(
          ERROR_CODES.TEAM_OWNER_CANNOT_LEAVE,
        );
      } else {
        // Leaves for real, then is invited back with the same role.
        expect((await call(method, { teamId }, as)).result, label).toEqual({ success: true });
        expect((await call('hub_getApiKeys', {}, as)).error?.code, label).toBe(
          ERROR_CODES.TEAM_FORBIDDEN,
        );
        await join(o, teamId, m, role);
      }
    } else if (method === 'hub_revokeOtherSessions') {
      // A second session ends; the one calling, with X-Team-Id set, goes on.
      const token = await throwawayToken(m);
      expect((await call(method, {}, as)).error, label).toBeUndefined();
      expect((await call('hub_getUserProfile', {}, { token })).error?.code, label).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      expect((await call('hub_getUserProfile', {}, as)).error, label).toBeUndefined();
    } else if (method === 'hub_deleteTeam') {
      expect(role).toBe('owner');
      expect((await call(method, { teamId }, as)).result, label).toEqual({ success: true });
    } else {
      throw new Error(`no targeted check for ${label}`);
    }
  }

  it('a personal login is never refused with 10302; team methods refuse a personal account id with 10301', async () => {
    const as = { token: v.token };
    const ids: TIds = {
      teamId: v.accountId,
      keyId: randomUUID(),
      inviteId: randomUUID(),
      userId: randomUUID(),
      packageId: randomUUID(),
      invoiceId: randomUUID(),
      exportId: randomUUID(),
      id: randomUUID(),
      orderId: randomUUID(),
      nodeId: randomUUID(),
      cardId: 'pm_probe_missing',
    };
    const wrong: string[] = [];
    for (const def of USER_METHODS) {
      const params = validParams(def, ids, h.clock.now());
      const token = def.name === 'hub_logout' ? await throwawayToken(v) : as.token;
      const res = await call(def.name, params, { token });
      const code = res.error?.code;
      const line = `${def.name}: ${JSON.stringify(res.error ?? 'ok')}`;
      if (def.teamFrom === 'params') {
        // A personal account is not a team: refused before any handler (hub_deleteTeam cannot disband it).
        if (code !== ERROR_CODES.TEAM_FORBIDDEN) wrong.push(line);
      } else if (code !== undefined && (DISPATCHER_REFUSALS.has(code) || ANOMALIES.has(code))) {
        wrong.push(line);
      }
    }
    expect(wrong).toEqual([]);
    const [acc] = await db.select().from(accounts).where(eq(accounts.id, v.accountId));
    expect(acc!.disbandedAt).toBeNull();
    // hub_getTeamUserProfile is about the team in X-Team-Id: a personal login has none.
    expect((await call('hub_getTeamUserProfile', {}, as)).error?.code).toBe(
      ERROR_CODES.TEAM_NOT_A_TEAM,
    );
  });

  it('methods that ignore X-Team-Id act as personal: a foreign or stale team id changes nothing', async () => {
    const ignoring = USER_METHODS.filter((d) => d.ignoresTeamHeader);
    // Observed set (documented): the session itself and the caller's own teams and invitations.
    expect(ignoring.map((d) => d.name).sort()).toEqual(
      [
        'hub_approveInvite',
        'hub_createTeam',
        'hub_getMyInvite',
        'hub_getMyTeam',
        'hub_getUserCode',
        'hub_logout',
        'hub_rejectInvite',
        // Sign-in, binding, two-factor and sessions are the user's, never a team's.
        ...USER_METHODS.filter((d) => SIGN_IN_METHODS.some((m) => m.name === d.name)).map(
          (d) => d.name,
        ),
      ].sort(),
    );
    const teamId = await newTeam(o, 'Header probe');
    await join(o, teamId, v, 'viewer');
    const stale = randomUUID();
    const ids = {
      teamId,
      keyId: randomUUID(),
      inviteId: randomUUID(),
      userId: randomUUID(),
      packageId: randomUUID(),
      invoiceId: randomUUID(),
      exportId: randomUUID(),
      id: randomUUID(),
      orderId: randomUUID(),
      nodeId: randomUUID(),
    };
    for (const def of ignoring) {
      for (const header of [teamId, stale]) {
        const token = def.name === 'hub_logout' ? await throwawayToken(v) : v.token;
        const res = await call(def.name, validParams(def, ids, h.clock.now()), {
          token,
          teamId: header,
        });
        const code = res.error?.code;
        expect(code === undefined || !DISPATCHER_REFUSALS.has(code), def.name).toBe(true);
        expect(code === undefined || !ANOMALIES.has(code), `${def.name} ${code}`).toBe(true);
      }
    }
    // The reads answer exactly what they answer without a header.
    for (const method of ['hub_getMyTeam', 'hub_getMyInvite', 'hub_getUserCode']) {
      const plain = await call(method, {}, { token: v.token });
      expect(plain.error).toBeUndefined();
      expect(await call(method, {}, { token: v.token, teamId: stale })).toEqual(plain);
      expect(await call(method, {}, { token: v.token, teamId })).toEqual(plain);
    }
    // A team created with X-Team-Id set is the caller's own, not the header team's; nothing lands in its log.
    const logsBefore = await db
      .select()
      .from(teamAuditLogs)
      .where(eq(teamAuditLogs.accountId, teamId));
    const created = await ok<{ teamId: string; role: string }>(
      'hub_createTeam',
      { teamName: 'Own team' },
      { token: v.token, teamId },
    );
    expect(created.role).toBe('owner');
    const owners = await db
      .select()
      .from(accountMembers)
      .where(eq(accountMembers.accountId, created.teamId));
    expect(owners.map((r) => [r.userId, r.role])).toEqual([[v.userId, 'owner']]);
    expect(
      await db.select().from(teamAuditLogs).where(eq(teamAuditLogs.accountId, teamId)),
    ).toEqual(logsBefore);
    // hub_logout with a team id the user no longer holds still signs out (the reason the flag exists).
    const token = await throwawayToken(v);
    await ok('hub_leaveTeam', { teamId }, { token: v.token });
    expect((await call('hub_logout', {}, { token, teamId })).result).toEqual({ success: true });
    expect((await call('hub_getUserProfile', {}, { token })).error?.code).toBe(
      ERROR_CODES.SESSION_REVOKED,
    );
  });

  it('cross-team and cross-account: every id-taking method aimed at B and P from A (each role) and u, 0 leaks', async () => {
    // --- The victims: team B (owner oB, viewer vB) and personal account P (user p), with real objects. ---
    const tag = randomBytes(4).toString('hex');
    const bName = `Victim B ${tag}`;
    const bTeamId = await newTeam(oB, bName);
    await ok('hub_editTeamNote', { teamId: bTeamId, note: `victim note ${tag}` }, oB);
    await join(oB, bTeamId, vB, 'viewer');
    const asB = { token: oB.token, teamId: bTeamId };
    const asP = { token: p.token };
    await ok('hub_setUserNickname', { nickname: `P nick ${tag}` }, asP);

    type TVictim = {
      label: string;
      accountId: string;
      key: { keyId: string; key: string; name: string };
      packageIds: string[];
      invoiceId: string;
      exportId: string;
      depositId: string;
      orderId: string;
      nodeId: string;
      cardId: string;
      billingName: string;
    };
    async function furnish(
      label: string,
      accountId: string,
      as: { token: string; teamId?: string },
    ) {
      const key = await ok<{ keyId: string; key: string; name: string }>(
        'hub_generateApiKey',
        { name: `${label} key ${tag}` },
        as,
      );
      // A request-log entry with a marker method: hub_getApiKeyRequestLogs must never show it to another account.
      await writeRequestLogBatch(db, {
        batchId: randomUUID(),
        createdAt: h.clock.now(),
        entries: [
          {
            accountId,
            keyId: key.keyId,
            at: h.clock.now(),
            chain: 'localnet',
            method: `victim_${label}_${tag}`,
            transport: 'http',
            outcome: 'ok',
            errorCode: null,
            latencyMs: 1,
            ru: 1,
          },
        ],
        dropped: [],
      });
      const billingName = `${label} Billing ${tag}`;
      await ok(
        'hub_updateUserInvoiceConfig',
        { name: billingName, company: `${label} Co ${tag}` },
        as,
      );
      await credit(accountId, 100_000);
      const bought = await ok<{ package: { id: string } }>(
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: idem(), autoRenew: true },
        as,
      );
      const free = await ok<{ package: { id: string } }>(
        'hub_getFreeSkuBuyFreeType',
        { skuId: 'free-monthly' },
        as,
      );
      const invoiceList = await ok<{ list: Array<{ id: string }> }>('hub_getUserInvoice', {}, as);
      expect(invoiceList.list).toHaveLength(1);
      const exp = await ok<{ exportId: string }>('hub_getViewUserDepositInfoCsv', {}, as);
      const [dep] = await db
        .insert(deposits)
        .values({
          accountId,
          chain: 'localnet',
          coin: 'USDT',
          txHash: `0x${randomUUID().replaceAll('-', '')}${'0'.repeat(32)}`,
          logIndex: 0,
          blockNumber: 10,
          blockHash: `0x${'ab'.repeat(32)}`,
          fromAddress: null,
          toAddress: '0x0000000000000000000000000000000000000001',
          amount: '12500000',
          usdCents: 1250,
          status: 'pending',
        })
        .returning();
      const cardId = await saveCard(as);
      const order = await ok<{ orderId: string; status: string }>(
        'hub_createStripeOrder',
        { amountCents: 500, idempotencyKey: idem() },
        as,
      );
      expect(order.status).toBe('succeeded');
      const node = await ok<{ node: { id: string } }>(
        'hub_buyDnNodeByWallet',
        { ...DN_TERMS, idempotencyKey: idem() },
        as,
      );
      return {
        label,
        accountId,
        key,
        packageIds: [bought.package.id, free.package.id],
        invoiceId: invoiceList.list[0]!.id,
        exportId: exp.exportId,
        depositId: dep!.id,
        orderId: order.orderId,
        nodeId: node.node.id,
        cardId,
        billingName,
      } satisfies TVictim;
    }
    const vb = await furnish('B', bTeamId, asB);
    const vp = await furnish('P', p.accountId, asP);
    const invitee = uniqueEmail(`invitee-${tag}`);
    const invite = await ok<{ inviteId: string }>(
      'hub_addMember',
      { teamId: bTeamId, email: invitee, role: 'admin' },
      oB,
    );

    // --- The attackers: team A (o owner, a admin, b billing, v viewer) acting as A, and u with a personal login. ---
    const aTeamId = await newTeam(o, 'Attackers');
    await join(o, aTeamId, a, 'admin');
    await join(o, aTeamId, b, 'billing');
    await join(o, aTeamId, v, 'viewer');
    await credit(aTeamId, 100_000);
    const aPkg = await ok<{ package: { id: string } }>(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: idem(), autoRenew: true },
      { token: o.token, teamId: aTeamId },
    );
    await credit(u.accountId, 100_000);
    const uPkg = await ok<{ package: { id: string } }>(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: idem(), autoRenew: true },
      { token: u.token },
    );
    type TActor = { label: string; token: string; header: string | null; ownPackageId: string };
    const actors: TActor[] = [
      ...(
        [
          ['owner', o],
          ['admin', a],
          ['billing', b],
          ['viewer', v],
        ] as const
      ).map(([role, m]) => ({
        label: `${role}@A`,
        token: m.token,
        header: aTeamId,
        ownPackageId: aPkg.package.id,
      })),
      { label: 'u (personal)', token: u.token, header: null, ownPackageId: uPkg.package.id },
    ];

    // --- What must not move: B's and P's rows, their users, their cards at Stripe. ---
    const victimAccounts = [bTeamId, p.accountId];
    const victimUsers = [oB.userId, vB.userId, p.userId];
    const sortById = <T extends Record<string, unknown>>(rows: T[]) =>
      [...rows].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    async function snapshot() {
      return {
        accounts: sortById(
          await db.select().from(accounts).where(inArray(accounts.id, victimAccounts)),
        ),
        users: sortById(await db.select().from(users).where(inArray(users.id, victimUsers))),
        sessions: sortById(
          (await db.select().from(sessions).where(inArray(sessions.userId, victimUsers))).map(
            // last_seen_at moves whenever a victim's own call is resolved; nothing else may.
            ({ lastSeenAt: _seen, ...row }) => row,
          ),
        ),
        members: sortById(
          await db
            .select()
            .from(accountMembers)
            .where(inArray(accountMembers.accountId, victimAccounts)),
        ),
        invites: sortById(
          await db.select().from(teamInvites).where(inArray(teamInvites.accountId, victimAccounts)),
        ),
        auditLogs: sortById(
          await db
            .select()
            .from(teamAuditLogs)
            .where(inArray(teamAuditLogs.accountId, victimAccounts)),
        ),
        apiKeys: sortById(
          await db.select().from(apiKeys).where(inArray(apiKeys.accountId, victimAccounts)),
        ),
        packages: sortById(
          await db.select().from(ruPackages).where(inArray(ruPackages.accountId, victimAccounts)),
        ),
        purchases: sortById(
          await db.select().from(purchases).where(inArray(purchases.accountId, victimAccounts)),
        ),
        money: sortById(
          await db.select().from(moneyLedger).where(inArray(moneyLedger.accountId, victimAccounts)),
        ),
        invoices: sortById(
          await db.select().from(invoices).where(inArray(invoices.accountId, victimAccounts)),
        ),
        invoiceConfigs: sortById(
          await db
            .select()
            .from(invoiceConfigs)
            .where(inArray(invoiceConfigs.accountId, victimAccounts)),
        ),
        exports: sortById(
          await db.select().from(exportJobs).where(inArray(exportJobs.accountId, victimAccounts)),
        ),
        deposits: sortById(
          await db.select().from(deposits).where(inArray(deposits.accountId, victimAccounts)),
        ),
        cardOrders: sortById(
          await db.select().from(cardOrders).where(inArray(cardOrders.accountId, victimAccounts)),
        ),
        dedicatedNodes: sortById(
          await db
            .select()
            .from(dedicatedNodes)
            .where(inArray(dedicatedNodes.accountId, victimAccounts)),
        ),
        dedicatedNodeOrders: sortById(
          await db
            .select()
            .from(dedicatedNodeOrders)
            .where(inArray(dedicatedNodeOrders.accountId, victimAccounts)),
        ),
        dedicatedNodeEvents: sortById(
          await db
            .select()
            .from(dedicatedNodeEvents)
            .where(inArray(dedicatedNodeEvents.nodeId, [vb.nodeId, vp.nodeId])),
        ),
        stripeCustomers: sortById(
          await db
            .select()
            .from(stripeCustomers)
            .where(inArray(stripeCustomers.accountId, victimAccounts)),
        ),
        spendLimits: sortById(
          await db.select().from(spendLimits).where(inArray(spendLimits.accountId, victimAccounts)),
        ),
        notices: sortById(
          await db
            .select()
            .from(notices)
            .where(
              or(inArray(notices.accountId, victimAccounts), inArray(notices.userId, victimUsers)),
            ),
        ),
        cardsB: await call('hub_getCreditCardList', {}, asB),
        cardsP: await call('hub_getCreditCardList', {}, asP),
        intentsOnVictimCards: [...fake.paymentIntents.values()].filter((pi) =>
          [vb.cardId, vp.cardId].includes(String(pi.payment_method)),
        ).length,
      };
    }
    const before = await snapshot();
    expect(before.apiKeys).toHaveLength(2);
    expect(before.invites.filter((i) => i.status === 'pending')).toHaveLength(1);
    expect(before.packages.filter((pk) => pk.autoRenew)).toHaveLength(2);
    expect(before.intentsOnVictimCards).toBe(2);

    // Anything of the victims' an answer must never carry (ids too, unless the attempt itself sent them).
    const markers = [
      bTeamId,
      bName,
      `victim note ${tag}`,
      p.accountId,
      oB.email,
      vB.email,
      p.email,
      oB.userId,
      vB.userId,
      p.userId,
      `P nick ${tag}`,
      invitee,
      invite.inviteId,
      ...[vb, vp].flatMap((x) => [
        x.key.keyId,
        x.key.key,
        x.key.name,
        ...x.packageIds,
        x.invoiceId,
        x.exportId,
        x.depositId,
        x.orderId,
        x.nodeId,
        x.cardId,
        x.billingName,
        `victim_${x.label}_${tag}`,
      ]),
    ].map((s) => s.toLowerCase());

    const victimSessions = await Promise.all(
      [oB, p].map(async (x) => {
        const [row] = await db
          .select({ id: sessions.id })
          .from(sessions)
          .where(eq(sessions.tokenHash, createHash('sha256').update(x.token).digest('hex')));
        return { email: x.email, sessionId: row!.id };
      }),
    );
    // --- The attempt table, from the catalogue: every (method, id param) gets the victims of that id's kind. ---
    const victimsByKey: Record<string, Array<{ label: string; ids: Partial<TIds> }>> = {
      keyId: [vb, vp].map((x) => ({ label: `${x.label} key`, ids: { keyId: x.key.keyId } })),
      teamId: [
        // B's own invitation and member ride along, so the call is valid for B in every respect.
        { label: 'team B', ids: { teamId: bTeamId, inviteId: invite.inviteId, userId: vB.userId } },
        { label: "P's personal account", ids: { teamId: p.accountId, userId: p.userId } },
      ],
      inviteId: [{ label: "B's pending invitation", ids: { inviteId: invite.inviteId } }],
      userId: [oB, vB, p].map((x) => ({ label: `user ${x.email}`, ids: { userId: x.userId } })),
      actorUserId: [oB, vB].map((x) => ({
        label: `B member ${x.email}`,
        ids: { actorUserId: x.userId },
      })),
      packageId: [vb, vp].flatMap((x) =>
        x.packageIds.map((id, i) => ({ label: `${x.label} package ${i}`, ids: { packageId: id } })),
      ),
      invoiceId: [vb, vp].map((x) => ({
        label: `${x.label} invoice`,
        ids: { invoiceId: x.invoiceId },
      })),
      exportId: [vb, vp].map((x) => ({
        label: `${x.label} export`,
        ids: { exportId: x.exportId },
      })),
      id: [vb, vp].map((x) => ({ label: `${x.label} pending deposit`, ids: { id: x.depositId } })),
      orderId: [vb, vp].map((x) => ({
        label: `${x.label} card order`,
        ids: { orderId: x.orderId },
      })),
      nodeId: [vb, vp].map((x) => ({
        label: `${x.label} dedicated node`,
        ids: { nodeId: x.nodeId },
      })),
      cardId: [vb, vp].map((x) => ({ label: `${x.label} card`, ids: { cardId: x.cardId } })),
      sessionId: victimSessions.map((x) => ({
        label: `session of ${x.email}`,
        ids: { sessionId: x.sessionId },
      })),
    };
    const idPairs = USER_METHODS.flatMap((def) => idKeysOf(def).map((k) => ({ def, key: k })));
    // A new id-taking method (or id kind) fails here until it gets victims above.
    expect(
      idPairs.filter((pair) => !victimsByKey[pair.key]).map((x) => `${x.def.name}.${x.key}`),
    ).toEqual([]);
    const headerMethods = USER_METHODS.filter(
      (d) => d.teamFrom !== 'params' && d.name !== 'hub_logout',
    );

    type TAttempt = {
      actor: string;
      method: string;
      target: string;
      key: string;
      params: Record<string, unknown>;
      header: string | null;
      /** a success is not a leak when this says so (the call acted on the caller's own things) */
      benign?: (result: unknown) => boolean;
      /** the only acceptable answer code, when known */
      expectCode?: number;
    };
    const attempts: TAttempt[] = [];
    const now = h.clock.now();
    for (const actor of actors) {
      const defaults: TIds = {
        teamId: aTeamId,
        keyId: randomUUID(),
        inviteId: randomUUID(),
        userId: randomUUID(),
        packageId: actor.ownPackageId,
        invoiceId: randomUUID(),
        exportId: randomUUID(),
        id: randomUUID(),
        orderId: randomUUID(),
        nodeId: randomUUID(),
      };
      for (const { def, key } of idPairs) {
        const keyless = key === 'keyId' && KEYLESS_REPORTS.has(def.name);
        for (const victim of victimsByKey[key]!) {
          attempts.push({
            actor: actor.label,
            method: def.name,
            target: victim.label,
            key,
            params: {
              ...validParams(def, { ...defaults, ...victim.ids }, now),
              // The one id a money report is refused with before anything runs (see KEYLESS_REPORTS).
              ...(keyless ? { keyId: victim.ids.keyId } : {}),
            },
            header: actor.header,
            // A role without billing is refused before its params are read.
            ...(keyless
              ? {
                  expectCode: actor.label.startsWith('viewer@')
                    ? ERROR_CODES.TEAM_ROLE_FORBIDDEN
                    : ERROR_CODES.INVALID_PARAMS,
                }
              : {}),
            // Filtering A's own log by someone else's id reads A's log: fine while it shows nothing of theirs.
            ...(key === 'actorUserId'
              ? { benign: (r: unknown) => (r as { list: unknown[] }).list.length === 0 }
              : {}),
            ...(key === 'teamId' ? { expectCode: ERROR_CODES.TEAM_FORBIDDEN } : {}),
          });
        }
      }
      for (const def of headerMethods) {
        for (const [label, header] of [
          ['X-Team-Id B', bTeamId],
          ["X-Team-Id P's account", p.accountId],
        ] as const) {
          attempts.push({
            actor: actor.label,
            method: def.name,
            target: label,
            key: 'X-Team-Id',
            params: validParams(def, defaults, now),
            header,
            ...(def.ignoresTeamHeader
              ? { benign: () => true } // acts as the caller's personal account; markers still checked
              : { expectCode: ERROR_CODES.TEAM_FORBIDDEN }),
          });
        }
      }
    }

    const leaks: string[] = [];
    const anomalies: string[] = [];
    const reachedPairs = new Set<string>();
    const codes = new Map<string, number>();
    let reached = 0;
    for (const at of attempts) {
      const res = await call(at.method, at.params, {
        token: actorToken(at.actor),
        teamId: at.header,
      });
      const text = JSON.stringify(res).toLowerCase();
      const sent = JSON.stringify(at.params).toLowerCase();
      const line = `${at.actor} ${at.method} → ${at.target} ${JSON.stringify(at.params)}: ${JSON.stringify(res).slice(0, 300)}`;
      const code = res.error?.code;
      codes.set(String(code ?? 'ok'), (codes.get(String(code ?? 'ok')) ?? 0) + 1);
      if (code === undefined && !at.benign?.(res.result)) leaks.push(`success: ${line}`);
      const carried = markers.filter((mk) => !sent.includes(mk) && text.includes(mk));
      if (carried.length > 0) leaks.push(`carries ${carried.join(', ')}: ${line}`);
      if (code !== undefined && ANOMALIES.has(code) && code !== at.expectCode) anomalies.push(line);
      if (at.expectCode !== undefined && code !== at.expectCode)
        leaks.push(`expected ${at.expectCode}: ${line}`);
      if (code === undefined || !(DISPATCHER_REFUSALS.has(code) || ANOMALIES.has(code))) {
        reached += 1;
        reachedPairs.add(`${at.method}.${at.key}`);
      }
    }
    function actorToken(label: string) {
      return actors.find((x) => x.label === label)!.token;
    }

    const after = await snapshot();
    const floor = actors.length * (idPairs.length + headerMethods.length * 2);
    console.info(
      `[team-access] cross-team attempts: ${attempts.length} (floor ${floor}; ${reached} reached a handler; ` +
        `${idPairs.length} id params × victims + ${headerMethods.length} header methods × 2, × ${actors.length} actors), leaks: ${leaks.length}`,
    );
    console.info(
      `[team-access] answers by code: ${JSON.stringify(Object.fromEntries([...codes].sort()))}`,
    );
    expect(anomalies).toEqual([]);
    expect(leaks).toEqual([]);
    expect(attempts.length).toBeGreaterThanOrEqual(floor);
    // Every id param other than a team's own id was tried past the dispatcher by someone entitled to call it.
    const unreached = idPairs
      .filter(
        (x) =>
          x.key !== 'teamId' &&
          !(x.key === 'keyId' && KEYLESS_REPORTS.has(x.def.name)) &&
          !reachedPairs.has(`${x.def.name}.${x.key}`),
      )
      .map((x) => `${x.def.name}.${x.key}`);
    expect(unreached).toEqual([]);
    expect(after).toEqual(before);
    // And in plain words, the things issue 13 names:
    expect(after.apiKeys.every((k) => k.deletedAt === null && !k.paused)).toBe(true);
    expect(after.apiKeys.map((k) => k.name).sort()).toEqual([vb.key.name, vp.key.name].sort());
    expect(after.invites.find((i) => i.id === invite.inviteId)?.status).toBe('pending');
    expect(after.accounts.every((acc) => acc.disbandedAt === null)).toBe(true);
    expect(after.packages.filter((pk) => pk.autoRenew)).toHaveLength(2);
    expect(after.members.map((m) => m.role).sort()).toEqual(
      before.members.map((m) => m.role).sort(),
    );
    expect(
      after.auditLogs.some((l) => [o, a, b, v, u].some((m) => m.userId === l.actorUserId)),
    ).toBe(false);
  });
});
