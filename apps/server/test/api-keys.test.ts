/** API keys, chains, limits, the RU ledger, usage batches and notices: good and bad input, on each test database. */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, MAX_API_KEYS_PER_ACCOUNT } from '@rpc/contract';
import { accountMembers, accounts, apiKeys, notices, ruLedger, usageMinute, users } from '@rpc/db';
import type { TUsageBatch } from '@rpc/gateway';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { cachedRuBalance, ledgerBalance } from '../src/services/ledger/append-ru-ledger';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';

const GIFT = 1_000_000;

describe.each(TEST_DATABASES)('API keys on $name', ({ open }) => {
  let h: THarness;
  const published: string[] = [];
  beforeAll(async () => {
    const keyEvents = new LocalInvalidationChannel();
    keyEvents.subscribe((id) => {
      published.push(id);
    });
    h = await createHarness(open, { keyEvents });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function userWithAccount() {
    const s = await h.signUp();
    const [u] = await h.database.db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }

  // One user (and key) for the many bad-input cases that change nothing: sign-ups cost argon2 time.
  let shared: Promise<Awaited<ReturnType<typeof userWithAccount>>> | undefined;
  const sharedUser = () => (shared ??= userWithAccount());
  let sharedKeyMade: Promise<Awaited<ReturnType<typeof newKey>>> | undefined;
  const sharedKey = async () => (sharedKeyMade ??= newKey((await sharedUser()).token, 'shared'));

  async function newKey(token: string, name = 'key', teamId?: string) {
    h.clock.advance(1); // creation times differ, so "newest first" is observable
    const res = await h.call('hub_generateApiKey', { name }, { token, teamId: teamId ?? null });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result;
  }

  describe('register gift', () => {
    it('credits the gift once in the ledger, caches it on the account and stores a register_gift notice', async () => {
      const u = await userWithAccount();
      const entries = await h.database.db
        .select()
        .from(ruLedger)
        .where(eq(ruLedger.accountId, u.accountId));
      expect(entries.map((e) => [e.kind, e.delta, e.ref])).toEqual([
        ['register_gift', GIFT, u.userId],
      ]);
      expect(await ledgerBalance(h.database.db, u.accountId)).toBe(GIFT);
      expect(await cachedRuBalance(h.database.db, u.accountId)).toBe(GIFT);
      const stored = await h.database.db.select().from(notices).where(eq(notices.userId, u.userId));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        type: 'register_gift',
        accountId: u.accountId,
        teamId: null,
        expand: { amount: GIFT },
        readAt: null,
      });
    });
  });

  describe('hub_getSupportChains, hub_getRuTable, hub_getUserLimitInfo', () => {
    it('lists the catalogue with templates that agree with hub_getConfig', async () => {
      const chains = await h.call('hub_getSupportChains', {});
      const config = await h.call('hub_getConfig', {});
      expect(chains.ok && config.ok).toBe(true);
      const localnet = chains.result!.list.find((c) => c.id === 'localnet')!;
      expect(localnet.chainId).toBe(31337);
      expect(localnet.httpUrlTemplate).toBe(
        config.result!.gatewayHttpUrlTemplate.replace('{chain}', 'localnet'),
      );
      expect(localnet.wsUrlTemplate).toBe('ws://gw.test/v1/localnet/{key}');
      const ids = chains.result!.list.map((c) => c.id);
      expect(ids).toEqual(expect.arrayContaining(['ethereum', 'bsc', 'polygon']));
    });

    it('serves the RU table the gateway bills with', async () => {
      const res = await h.call('hub_getRuTable', {});
      const price = (m: string) => res.result!.methods.find((x) => x.method === m)?.ru;
      expect(price('eth_chainId')).toBe(5);
      expect(price('eth_blockNumber')).toBe(10);
      expect(price('eth_getBalance')).toBe(15);
      expect(price('eth_getLogs')).toBe(50);
      expect(price('trace_replayTransaction')).toBe(2900);
      expect(price('debug_trace*')).toBe(150);
      expect(res.result!.rules).toEqual({
        unlistedRuPer250Bytes: 5,
        archiveSurchargePercent: 30,
        getLogsSurchargePercentPer200KbOver200Kb: 100,
        responseSurchargePercentPerMbOver1Mb: 100,
      });
    });

    it('gives the SPEC §3 limit fields of the free tier, the RU balance and every tier', async () => {
      const u = await userWithAccount();
      const res = await h.call('hub_getUserLimitInfo', {}, { token: u.token });
      expect(res.result).toMatchObject({
        currentLimitRate: 20,
        currentLimitRateLevel: 'free',
        currentLimitRateOrder: 0,
        currentLimitRateValue: 400,
        currentLimitRateLevelView: 'Free',
        currentLimitRateTitleView: 'Free: 20 requests/s, 400 RU/s',
        ruBalance: GIFT,
      });
      expect(res.result!.tiers.map((t) => [t.level, t.reqPerSec, t.ruPerSec])).toEqual([
        ['free', 20, 400],
        ['elementary', 1000, 40_000],
        ['premium', 2500, 100_000],
      ]);
      expect((await h.call('hub_getUserLimitInfo', {})).error?.code).toBe(
        ERROR_CODES.SESSION_MISSING,
      );
    });
  });

  describe('hub_generateApiKey, hub_getApiKey', () => {
    it('creates an opaque key for the acting account and publishes its id', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token, '  My dApp  ');
      expect(key).toMatchObject({
        name: 'My dApp',
        paused: false,
        archiveMode: false,
        mev: '',
        bundler: 'default',
        allowlists: { origins: [], ips: [], contracts: [], methods: [] },
        today: { requests: 0, ru: 0 },
      });
      expect(key.key).toMatch(/^[0-9a-f]{64}$/);
      expect(
        (await h.call('hub_getUserProfile', {}, { token: u.token })).result!.totalApiKeys,
      ).toBe(1);
      expect(published).toContain(key.keyId);
      const [row] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.keyId));
      expect(row!.accountId).toBe(u.accountId);
      expect(
        (await h.call('hub_getApiKey', { keyId: key.keyId }, { token: u.token })).result,
      ).toEqual(key);
    });

    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['too long', 'x'.repeat(41)],
      ['control character', 'a\u0000b'],
      ['bidi override', 'abc\u202edef'],
      ['zero-width', 'a\u200bb'],
      ['not a string', 42],
    ])('refuses a %s name with 10004', async (_label, name) => {
      const u = await sharedUser();
      const res = await h.raw(
        { method: 'hub_generateApiKey', params: { name }, id: 1 },
        { token: u.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      const rows = await h.database.db
        .select({ name: apiKeys.name })
        .from(apiKeys)
        .where(eq(apiKeys.accountId, u.accountId));
      expect(rows.filter((r) => r.name !== 'shared')).toEqual([]);
    });

    it('stores hostile but printable names as text', async () => {
      const u = await userWithAccount();
      const name = `<script>'; drop table x;--`;
      expect((await newKey(u.token, name)).name).toBe(name);
    });

    it('answers 10004 for malformed ids and 50404 for unknown or other accounts’ keys', async () => {
      const a = await userWithAccount();
      const b = await userWithAccount();
      const key = await newKey(a.token);
      for (const keyId of ['not-a-uuid', "' or 1=1 --", '', 5])
        expect(
          (await h.raw({ method: 'hub_getApiKey', params: { keyId }, id: 1 }, { token: a.token }))
            .error?.code,
        ).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(
        (await h.call('hub_getApiKey', { keyId: randomUUID() }, { token: a.token })).error?.code,
      ).toBe(ERROR_CODES.NOT_FOUND);
      for (const call of [
        h.call('hub_getApiKey', { keyId: key.keyId }, { token: b.token }),
        h.call('hub_setApiKeyName', { keyId: key.keyId, name: 'mine' }, { token: b.token }),
        h.call('hub_deleteApiKey', { keyId: key.keyId }, { token: b.token }),
        h.call('hub_updateApiKey', { keyId: key.keyId, paused: true }, { token: b.token }),
        h.call('hub_setApiKeyMev', { keyId: key.keyId, mev: 'auto' }, { token: b.token }),
        h.call(
          'hub_setApiKeyBundler',
          { keyId: key.keyId, bundler: 'pimlico' },
          { token: b.token },
        ),
        h.call(
          'hub_setApiKeyAdvancedFeatures',
          { keyId: key.keyId, feature: 'archive_mode', enabled: true },
          { token: b.token },
        ),
      ])
        expect((await call).error?.code).toBe(ERROR_CODES.NOT_FOUND);
      // Nothing changed.
      expect(
        (await h.call('hub_getApiKey', { keyId: key.keyId }, { token: a.token })).result,
      ).toEqual(key);
    });

    it(`allows ${MAX_API_KEYS_PER_ACCOUNT} live keys per account, then 50409; a deletion frees a slot`, async () => {
      const u = await userWithAccount();
      const now = new Date(h.clock.now());
      await h.database.db.insert(apiKeys).values(
        Array.from({ length: MAX_API_KEYS_PER_ACCOUNT - 1 }, (_, i) => {
          const id = randomUUID();
          const key = randomUUID().replaceAll('-', '') + i;
          const cipher = h.server.deps.apiKeyCipher;
          return {
            id,
            accountId: u.accountId,
            name: `bulk ${i}`,
            keyHash: cipher.hash(key),
            keyCiphertext: cipher.seal(id, key),
            createdAt: now,
            updatedAt: now,
          };
        }),
      );
      const last = await newKey(u.token, 'fiftieth');
      expect(
        (await h.call('hub_generateApiKey', { name: 'one more' }, { token: u.token })).error?.code,
      ).toBe(ERROR_CODES.CONFLICT);
      expect((await h.call('hub_deleteApiKey', { keyId: last.keyId }, { token: u.token })).ok).toBe(
        true,
      );
      expect(
        (await h.call('hub_generateApiKey', { name: 'one more' }, { token: u.token })).ok,
      ).toBe(true);
    });
  });

  describe('hub_getApiKeys, hub_getPureApiKeys', () => {
    it('pages newest first with the SPEC page size default and bounds', async () => {
      const u = await userWithAccount();
      const created = [];
      for (let i = 1; i <= 7; i++) created.push(await newKey(u.token, `key ${i}`));
      const page1 = await h.call('hub_getApiKeys', {}, { token: u.token });
      expect(page1.result).toMatchObject({ total: 7, page: 1, perPage: 5 });
      expect(page1.result!.list.map((k) => k.name)).toEqual([
        'key 7',
        'key 6',
        'key 5',
        'key 4',
        'key 3',
      ]);
      const page2 = await h.call('hub_getApiKeys', { page: 2, perPage: 5 }, { token: u.token });
      expect(page2.result!.list.map((k) => k.name)).toEqual(['key 2', 'key 1']);
      const beyond = await h.call('hub_getApiKeys', { page: 99, perPage: 5 }, { token: u.token });
      expect(beyond.result).toMatchObject({ list: [], total: 7 });
      for (const params of [
        { page: 0 },
        { page: -1 },
        { page: 1.5 },
        { perPage: 0 },
        { perPage: 101 },
        { page: '1' },
        { search: 'x'.repeat(65) },
      ])
        expect(
          (await h.raw({ method: 'hub_getApiKeys', params, id: 1 }, { token: u.token })).error
            ?.code,
        ).toBe(ERROR_CODES.INVALID_PARAMS);
      const pure = await h.call('hub_getPureApiKeys', {}, { token: u.token });
      expect(pure.result!.list).toEqual(
        created.reverse().map((k) => ({ keyId: k.keyId, name: k.name })),
      );
    });

    it('searches name or key, with LIKE wildcards matching only themselves', async () => {
      const u = await userWithAccount();
      const pct = await newKey(u.token, '50% off');
      const under = await newKey(u.token, 'a_b');
      await newKey(u.token, 'axb');
      const slash = await newKey(u.token, 'back\\slash');
      const names = async (search: string) =>
        (
          await h.call('hub_getApiKeys', { search, perPage: 100 }, { token: u.token })
        ).result!.list.map((k) => k.name);
      expect(await names('%')).toEqual([pct.name]);
      expect(await names('_')).toEqual([under.name]);
      expect(await names('\\')).toEqual([slash.name]);
      expect(await names('A_B')).toEqual([under.name]);
      expect(await names('AXB')).toEqual(['axb']);
      expect(await names(under.key.slice(10, 30))).toEqual([under.name]);
      expect(await names('nothing like this')).toEqual([]);
      expect(
        (await h.call('hub_getApiKeys', { search: '%' }, { token: u.token })).result!.total,
      ).toBe(1);
    });

    it('never shows another account’s keys', async () => {
      const a = await userWithAccount();
      const b = await userWithAccount();
      await newKey(a.token, 'secret of a');
      const res = await h.call('hub_getApiKeys', { search: 'secret' }, { token: b.token });
      expect(res.result).toMatchObject({ list: [], total: 0 });
    });
  });

  describe('changing keys', () => {
    it('renames, sets MEV and bundler, pauses and replaces allowlists; each change is published', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token);
      published.length = 0;
      const t = { token: u.token };
      expect(
        (await h.call('hub_setApiKeyName', { keyId: key.keyId, name: 'renamed' }, t)).result!.name,
      ).toBe('renamed');
      expect(
        (await h.call('hub_setApiKeyMev', { keyId: key.keyId, mev: 'globalcast' }, t)).result!.mev,
      ).toBe('globalcast');
      expect(
        (await h.call('hub_setApiKeyBundler', { keyId: key.keyId, bundler: 'pimlico' }, t)).result!
          .bundler,
      ).toBe('pimlico');
      const updated = await h.call(
        'hub_updateApiKey',
        {
          keyId: key.keyId,
          paused: true,
          allowlists: {
            origins: ['https://App.Example.com', 'https://app.example.com', '*.example.org'],
            ips: ['10.0.0.0/8', '::1'],
          },
        },
        t,
      );
      expect(updated.result).toMatchObject({
        paused: true,
        allowlists: {
          origins: ['https://app.example.com', '*.example.org'],
          ips: ['10.0.0.0/8', '::1'],
          contracts: [],
          methods: [],
        },
      });
      // Lists not given stay as they are.
      const methodsOnly = await h.call(
        'hub_updateApiKey',
        { keyId: key.keyId, allowlists: { methods: ['eth_call'] } },
        t,
      );
      expect(methodsOnly.result!.allowlists).toMatchObject({
        origins: ['https://app.example.com', '*.example.org'],
        methods: ['eth_call'],
      });
      expect(methodsOnly.result!.paused).toBe(true);
      expect(published).toEqual(Array(5).fill(key.keyId));
    });

    it.each([
      ['unknown MEV mode', 'hub_setApiKeyMev', { mev: 'turbo' }],
      ['unknown bundler', 'hub_setApiKeyBundler', { bundler: 'flashbots' }],
      ['unknown feature', 'hub_setApiKeyAdvancedFeatures', { feature: 'mev', enabled: true }],
      [
        'oversize allowlist',
        'hub_updateApiKey',
        { allowlists: { ips: Array(101).fill('10.0.0.1') } },
      ],
      ['bad origin', 'hub_updateApiKey', { allowlists: { origins: ['javascript:alert(1)'] } }],
      ['bad IP', 'hub_updateApiKey', { allowlists: { ips: ['300.1.1.1'] } }],
      ['bad contract', 'hub_updateApiKey', { allowlists: { contracts: ['0x123'] } }],
      ['bad method', 'hub_updateApiKey', { allowlists: { methods: ['eth_call; drop'] } }],
      ['paused not boolean', 'hub_updateApiKey', { paused: 'yes' }],
    ] as const)('refuses %s with 10004 and changes nothing', async (_l, method, extra) => {
      const u = await sharedUser();
      const key = await sharedKey();
      const res = await h.raw(
        { method, params: { keyId: key.keyId, ...extra }, id: 1 },
        { token: u.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(
        (await h.call('hub_getApiKey', { keyId: key.keyId }, { token: u.token })).result,
      ).toEqual(key);
    });

    it('archive mode raises apikey_feature_update once per real change and makes a free account need an upgrade', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token, 'archiver');
      expect((await h.call('hub_getApiKeyNeedUpgrade', {}, { token: u.token })).result).toEqual({
        needUpgrade: false,
        tier: 'free',
        reasons: [],
      });
      const on = { keyId: key.keyId, feature: 'archive_mode', enabled: true } as const;
      expect(
        (await h.call('hub_setApiKeyAdvancedFeatures', on, { token: u.token })).result!.archiveMode,
      ).toBe(true);
      await h.call('hub_setApiKeyAdvancedFeatures', on, { token: u.token }); // no change, no notice
      const stored = await h.database.db
        .select()
        .from(notices)
        .where(and(eq(notices.userId, u.userId), eq(notices.type, 'apikey_feature_update')));
      expect(stored).toHaveLength(1);
      expect(stored[0]!.expand).toEqual({
        apikeyName: 'archiver',
        featureName: 'archive_mode',
        type: 'on',
      });
      expect((await h.call('hub_getApiKeyNeedUpgrade', {}, { token: u.token })).result).toEqual({
        needUpgrade: true,
        tier: 'free',
        reasons: ['advanced_features_on_free_tier'],
      });
      await h.database.db
        .update(accounts)
        .set({ tier: 'premium' })
        .where(eq(accounts.id, u.accountId));
      expect(
        (await h.call('hub_getApiKeyNeedUpgrade', {}, { token: u.token })).result!.needUpgrade,
      ).toBe(false);
    });

    it('deletes for good: not served, not listed, apikey_delete stored, a second delete is 50404', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token, 'doomed');
      published.length = 0;
      expect(await h.call('hub_deleteApiKey', { keyId: key.keyId }, { token: u.token })).toEqual({
        ok: true,
        result: { success: true },
      });
      expect(published).toEqual([key.keyId]);
      expect(
        (await h.call('hub_getApiKey', { keyId: key.keyId }, { token: u.token })).error?.code,
      ).toBe(ERROR_CODES.NOT_FOUND);
      expect(
        (await h.call('hub_deleteApiKey', { keyId: key.keyId }, { token: u.token })).error?.code,
      ).toBe(ERROR_CODES.NOT_FOUND);
      expect((await h.call('hub_getApiKeys', {}, { token: u.token })).result!.total).toBe(0);
      expect((await h.call('hub_getPureApiKeys', {}, { token: u.token })).result!.list).toEqual([]);
      const stored = await h.database.db
        .select()
        .from(notices)
        .where(and(eq(notices.userId, u.userId), eq(notices.type, 'apikey_delete')));
      expect(stored.map((n) => n.expand)).toEqual([{ apikeyName: 'doomed' }]);
    });
  });

  describe('team accounts', () => {
    it('keys made in a team belong to the team; a non-member’s team header is 10301', async () => {
      const owner = await userWithAccount();
      const outsider = await userWithAccount();
      const [team] = await h.database.db
        .insert(accounts)
        .values({ kind: 'team', name: 'Team A' })
        .returning({ id: accounts.id });
      await h.database.db
        .insert(accountMembers)
        .values({ accountId: team!.id, userId: owner.userId, role: 'owner' });
      const teamKey = await newKey(owner.token, 'team key', team!.id);
      const [row] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.id, teamKey.keyId));
      expect(row!.accountId).toBe(team!.id);
      expect((await h.call('hub_getApiKeys', {}, { token: owner.token })).result!.total).toBe(0);
      expect(
        (await h.call('hub_getApiKeys', {}, { token: owner.token, teamId: team!.id })).result!
          .total,
      ).toBe(1);
      for (const teamId of [team!.id, randomUUID(), 'not-a-uuid']) {
        expect(
          (await h.call('hub_getApiKeys', {}, { token: outsider.token, teamId })).error?.code,
        ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
        expect(
          (await h.call('hub_generateApiKey', { name: 'x' }, { token: outsider.token, teamId }))
            .error?.code,
        ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
      }
      // The team's key is not reachable from the owner's personal account either.
      expect(
        (await h.call('hub_getApiKey', { keyId: teamKey.keyId }, { token: owner.token })).error
          ?.code,
      ).toBe(ERROR_CODES.NOT_FOUND);
      // Team notices go to the team's owners and admins and carry the team id.
      await h.call(
        'hub_deleteApiKey',
        { keyId: teamKey.keyId },
        { token: owner.token, teamId: team!.id },
      );
      const [n] = await h.database.db
        .select()
        .from(notices)
        .where(and(eq(notices.userId, owner.userId), eq(notices.type, 'apikey_delete')));
      expect(n).toMatchObject({ accountId: team!.id, teamId: team!.id });
    });
  });

  describe('usage batches and the RU ledger', () => {
    it('writes a batch once however often it is retried, debits once, and keeps the cached balance equal to the ledger', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token);
      const now = h.clock.now();
      const minute = now - (now % 60_000);
      const batch: TUsageBatch = {
        batchId: randomUUID(),
        ruTableVersion: 'test',
        createdAt: now,
        rows: [
          {
            accountId: u.accountId,
            keyId: key.keyId,
            chain: 'localnet',
            method: 'eth_blockNumber',
            minute,
            requests: 3,
            ru: 30,
            errors: 0,
            latencyMsSum: 6,
            latencyMsMax: 3,
          },
          {
            accountId: u.accountId,
            keyId: key.keyId,
            chain: 'localnet',
            method: 'eth_getBalance',
            minute,
            requests: 2,
            ru: 30,
            errors: 1,
            latencyMsSum: 4,
            latencyMsMax: 2,
          },
        ],
      };
      expect((await writeUsageBatch(h.database.db, batch)).applied).toBe(true);
      expect((await writeUsageBatch(h.database.db, batch)).applied).toBe(false);
      await Promise.all([
        writeUsageBatch(h.database.db, batch),
        writeUsageBatch(h.database.db, batch),
      ]);
      // A later batch for the same minute adds to the same rows.
      const second: TUsageBatch = {
        ...batch,
        batchId: randomUUID(),
        rows: [{ ...batch.rows[0]!, requests: 1, ru: 10, latencyMsSum: 9, latencyMsMax: 9 }],
      };
      await writeUsageBatch(h.database.db, second);

      const rows = await h.database.db
        .select()
        .from(usageMinute)
        .where(eq(usageMinute.keyId, key.keyId))
        .orderBy(usageMinute.method);
      expect(
        rows.map((r) => [r.method, r.requests, r.ru, r.errors, r.latencyMsSum, r.latencyMsMax]),
      ).toEqual([
        ['eth_blockNumber', 4, 40, 0, 15, 9],
        ['eth_getBalance', 2, 30, 1, 4, 2],
      ]);
      const debits = await h.database.db
        .select()
        .from(ruLedger)
        .where(and(eq(ruLedger.accountId, u.accountId), eq(ruLedger.kind, 'usage')));
      expect(debits.map((d) => d.delta).sort()).toEqual([-10, -60]);
      expect(await ledgerBalance(h.database.db, u.accountId)).toBe(GIFT - 70);
      expect(await cachedRuBalance(h.database.db, u.accountId)).toBe(GIFT - 70);
      const listed = await h.call('hub_getApiKeys', {}, { token: u.token });
      expect(listed.result!.list[0]!.today).toEqual({ requests: 6, ru: 70 });
      expect((await h.call('hub_getUserLimitInfo', {}, { token: u.token })).result!.ruBalance).toBe(
        GIFT - 70,
      );
    });

    it('puts made-up method names (any length) into one bucket instead of failing the batch', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token);
      const now = h.clock.now();
      const minute = now - (now % 60_000);
      const row = {
        accountId: u.accountId,
        keyId: key.keyId,
        chain: 'localnet',
        minute,
        requests: 1,
        ru: 0,
        errors: 1,
        latencyMsSum: 1,
        latencyMsMax: 1,
      };
      const res = await writeUsageBatch(h.database.db, {
        batchId: randomUUID(),
        ruTableVersion: 'test',
        createdAt: now,
        rows: [
          { ...row, method: 'x'.repeat(100_000) },
          { ...row, method: "eth_call'; drop table usage_minute;--" },
          { ...row, method: 'eth_call' },
        ],
      });
      expect(res.applied).toBe(true);
      const rows = await h.database.db
        .select({ method: usageMinute.method, requests: usageMinute.requests })
        .from(usageMinute)
        .where(eq(usageMinute.keyId, key.keyId))
        .orderBy(usageMinute.method);
      expect(rows).toEqual([
        { method: '(invalid)', requests: 2 },
        { method: 'eth_call', requests: 1 },
      ]);
    });

    it('counts only today (UTC) in `today`', async () => {
      const u = await userWithAccount();
      const key = await newKey(u.token);
      const now = h.clock.now();
      const dayStart = now - (now % 86_400_000);
      await writeUsageBatch(h.database.db, {
        batchId: randomUUID(),
        ruTableVersion: 'test',
        createdAt: now,
        rows: [
          {
            accountId: u.accountId,
            keyId: key.keyId,
            chain: 'localnet',
            method: 'eth_chainId',
            minute: dayStart - 60_000,
            requests: 9,
            ru: 45,
            errors: 0,
            latencyMsSum: 0,
            latencyMsMax: 0,
          },
          {
            accountId: u.accountId,
            keyId: key.keyId,
            chain: 'localnet',
            method: 'eth_chainId',
            minute: dayStart,
            requests: 1,
            ru: 5,
            errors: 0,
            latencyMsSum: 0,
            latencyMsMax: 0,
          },
        ],
      });
      expect(
        (await h.call('hub_getApiKey', { keyId: key.keyId }, { token: u.token })).result!.today,
      ).toEqual({
        requests: 1,
        ru: 5,
      });
    });
  });
});
