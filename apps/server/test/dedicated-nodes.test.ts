/**
 * Dedicated nodes (issue 15, server core) on each database: the catalogue, buying and renewing from the wallet (one
 * debit per key, under concurrency too), bad input, another account's node, the paged view, team roles, and the
 * lifecycle with the local driver — a real Hardhat node per order that comes online, answers eth_chainId, warns,
 * expires and stops, comes back when renewed within its grace period, and cannot be renewed after it.
 */
import { randomUUID } from 'node:crypto';
import {
  DN_GRACE_DAYS,
  DN_NODE_TYPES,
  DN_STATUSES,
  ERROR_CODES,
  addMonthsUtc,
  dnPriceCents,
  type TDnNodeType,
} from '@rpc/contract';
import {
  accounts,
  dedicatedNodeEvents,
  dedicatedNodeOrders,
  dedicatedNodes,
  dnNodeType,
  dnStatus,
  moneyLedger,
  notices,
  usageMinute,
  users,
  type TDatabase,
} from '@rpc/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalDnDriver,
  type TLocalDnDriver,
} from '../src/services/dedicated-nodes/local-driver';
import { checkDnCatalogue } from '../src/services/dedicated-nodes/dn-catalogue';
import { startDbGateway } from '../src/gateway/start-db-gateway';
import { startDnSweep } from '../src/jobs/dedicated-node-sweep';
import { sweepDedicatedNodes } from '../src/services/dedicated-nodes/lifecycle';
import type { TReport } from '../src/services/reports/open-report';
import { seriesNames } from '../src/services/reports/report-series';
import {
  startNodeByOperator,
  stopNodeByOperator,
} from '../src/services/dedicated-nodes/operator-actions';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';
import { subjectOf } from './helpers/smtp';

const DAY = 86_400_000;
const idem = () => randomUUID().replaceAll('-', '');

describe.each(TEST_DATABASES)('dedicated nodes on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  let driver: TLocalDnDriver;
  beforeAll(async () => {
    driver = createLocalDnDriver({ logger: pino({ level: 'silent' }) });
    h = await createHarness(open, { dnDriver: driver });
    db = h.database.db;
  });
  afterAll(async () => {
    await driver?.close();
    expect(driver?.running() ?? 0).toBe(0);
    await h?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

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

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }

  /** A fresh session after the test clock moved past the last one's 30 days. */
  async function signIn(u: TUser): Promise<string> {
    return (await ok(h.call('hub_login', { email: u.email, password: digest(u.password) }))).token;
  }

  /** The catalogue's price, through the contract's own formula (what the web shows). */
  function price(chain: string, nodeType: TDnNodeType, months: number): number {
    const c = h.server.deps.dnSkus;
    const monthly = c.chains
      .find((x) => x.id === chain)!
      .nodeTypes.find((t) => t.type === nodeType)!.monthlyCents;
    return dnPriceCents(
      monthly,
      months,
      c.periods.find((p) => p.months === months)!.discountPercent,
    );
  }

  function buyParams(o: { months?: number; nodeType?: TDnNodeType } = {}) {
    const months = o.months ?? 1;
    const nodeType = o.nodeType ?? 'full';
    return {
      chain: 'localnet',
      nodeType,
      region: 'local',
      months,
      idempotencyKey: idem(),
      expectedCents: price('localnet', nodeType, months),
    };
  }

  async function walletCents(accountId: string) {
    const [a] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    return a!.walletCents;
  }

  /** The cached wallet equals its ledger, and the ledger never went below zero. */
  async function expectLedgerTrue(accountId: string) {
    expect(await ledgerWalletCents(db, accountId)).toBe(await walletCents(accountId));
    expect(await walletCents(accountId)).toBeGreaterThanOrEqual(0);
  }

  async function nodesOf(accountId: string) {
    return db.select().from(dedicatedNodes).where(eq(dedicatedNodes.accountId, accountId));
  }

  async function eventsOf(nodeId: string) {
    return db
      .select()
      .from(dedicatedNodeEvents)
      .where(eq(dedicatedNodeEvents.nodeId, nodeId))
      .orderBy(asc(dedicatedNodeEvents.seq));
  }

  async function dnLedger(accountId: string) {
    return db
      .select()
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.accountId, accountId),
          inArray(moneyLedger.kind, ['dn_purchase', 'dn_renewal']),
        ),
      );
  }

  /** Everything of an account that a refused call must leave as it was. */
  async function snapshot(accountId: string) {
    const nodes = await nodesOf(accountId);
    return {
      wallet: await walletCents(accountId),
      ledger: await db.select().from(moneyLedger).where(eq(moneyLedger.accountId, accountId)),
      nodes,
      orders: await db
        .select()
        .from(dedicatedNodeOrders)
        .where(eq(dedicatedNodeOrders.accountId, accountId)),
      events:
        nodes.length === 0
          ? []
          : await db
              .select()
              .from(dedicatedNodeEvents)
              .where(
                inArray(
                  dedicatedNodeEvents.nodeId,
                  nodes.map((n) => n.id),
                ),
              ),
    };
  }

  it('hub_getDnSku: the versioned catalogue; localnet can run here, the real chains are shown, not sold', async () => {
    const u = await user();
    const sku = await ok(h.call('hub_getDnSku', {}, { token: u.token }));
    expect(sku.version).toBe(h.server.deps.dnSkus.version);
    expect(sku.currency).toBe('USD');
    expect(sku.willExpireDays).toBe(3);
    expect(sku.graceDays).toBe(DN_GRACE_DAYS);
    const localnet = sku.chains.find((c) => c.id === 'localnet')!;
    expect(localnet).toMatchObject({ isAvailable: true, regions: ['local'] });
    expect(localnet.nodeTypes.map((t) => t.type).sort()).toEqual(['archive', 'full']);
    const others = sku.chains.filter((c) => c.id !== 'localnet');
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(others.every((c) => !c.isAvailable)).toBe(true);
    expect(sku.periods.map((p) => p.months)).toEqual([1, 3, 6, 12]);
    expect(sku.periods.find((p) => p.months === 1)!.discountPercent).toBe(0);
    // Every chain's regions are in the region list.
    const regionIds = new Set(sku.regions.map((r) => r.id));
    expect(sku.chains.every((c) => c.regions.every((r) => regionIds.has(r)))).toBe(true);

    // A bad catalogue stops the server at start, saying why.
    const good = h.server.deps.dnSkus;
    const broken: Array<[string, unknown]> = [
      ['duplicate chain', { ...good, chains: [...good.chains, good.chains[0]] }],
      ['no region', { ...good, regions: good.regions.filter((r) => r.id !== 'local') }],
      ['duplicate period', { ...good, periods: [...good.periods, good.periods[0]] }],
      [
        'price',
        {
          ...good,
          chains: [{ ...good.chains[0]!, nodeTypes: [{ type: 'full', monthlyCents: 0 }] }],
        },
      ],
      ['version', { ...good, version: '' }],
    ];
    for (const [label, data] of broken) expect(() => checkDnCatalogue(data), label).toThrow();
    expect(checkDnCatalogue(JSON.parse(JSON.stringify(good)))).toEqual(good);
    // Whole cents, the discount rounded down; calendar months clamp to the month's last day.
    expect(dnPriceCents(999, 3, 5)).toBe(2997 - 149);
    expect(addMonthsUtc(Date.UTC(2027, 0, 31, 12), 1)).toBe(Date.UTC(2027, 1, 28, 12));
    expect(addMonthsUtc(Date.UTC(2027, 11, 15), 3)).toBe(Date.UTC(2028, 2, 15));
    // The database knows exactly the contract's statuses and node types.
    expect(dnStatus.enumValues).toEqual([...DN_STATUSES]);
    expect(dnNodeType.enumValues).toEqual([...DN_NODE_TYPES]);
  });

  it('buys a node from the wallet: the exact price once, one pending node with its event, replayed by its key', async () => {
    const u = await user();
    await credit(u.accountId, 10_000);
    const params = buyParams({ months: 3 });
    // 3 months at $5.00 less the period's 5%: 1425 cents, whatever the float would say.
    expect(params.expectedCents).toBe(1425);
    const before = h.clock.now();
    const bought = await ok(h.call('hub_buyDnNodeByWallet', params, { token: u.token }));
    expect(bought.order).toMatchObject({
      kind: 'buy',
      months: 3,
      monthlyCents: 500,
      discountPercent: 5,
      priceCents: 1425,
      channel: 'wallet',
      skuVersion: h.server.deps.dnSkus.version,
      expiresBefore: null,
    });
    expect(bought.node).toMatchObject({
      chain: 'localnet',
      chainName: { en: 'Localnet (Hardhat)' },
      nodeType: 'full',
      region: 'local',
      status: 'pending',
      months: 3,
      onlineAt: null,
      autoRenew: false,
      isRenewable: true,
      expiresAt: addMonthsUtc(before, 3),
      graceEndsAt: addMonthsUtc(before, 3) + DN_GRACE_DAYS * DAY,
      endpoint: {
        httpUrlTemplate: `http://gw.test/dn/${bought.node.id}/{key}`,
        wsUrlTemplate: `ws://gw.test/dn/${bought.node.id}/{key}`,
      },
    });
    expect(bought.node.history).toEqual([{ status: 'pending', at: before, reason: 'ordered' }]);
    expect(bought.wallet.amountCents).toBe(10_000 - 1425);

    const ledger = await dnLedger(u.accountId);
    expect(ledger.map((l) => [l.kind, l.delta, l.ref])).toEqual([
      ['dn_purchase', -1425, bought.order.id],
    ]);
    await expectLedgerTrue(u.accountId);
    expect(await nodesOf(u.accountId)).toHaveLength(1);
    const raised = await db.select().from(notices).where(eq(notices.accountId, u.accountId));
    expect(raised.filter((n) => n.title === 'Dedicated node ordered')).toHaveLength(1);

    // A retry after a lost answer: the same order, nothing paid again.
    const again = await ok(h.call('hub_buyDnNodeByWallet', params, { token: u.token }));
    expect(again.order.id).toBe(bought.order.id);
    expect(again.node.id).toBe(bought.node.id);
    // The key with other terms is refused and changes nothing.
    const before2 = await snapshot(u.accountId);
    for (const other of [
      { months: 1, expectedCents: price('localnet', 'full', 1) },
      { nodeType: 'archive' as const, expectedCents: price('localnet', 'archive', 3) },
    ]) {
      const res = await h.call(
        'hub_buyDnNodeByWallet',
        { ...params, ...other },
        { token: u.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    }
    // ...and so is a purchase's key sent to a renewal.
    const asRenewal = await h.call(
      'hub_renewDnNodeByWallet',
      {
        nodeId: bought.node.id,
        months: 3,
        idempotencyKey: params.idempotencyKey,
        expectedCents: 1425,
      },
      { token: u.token },
    );
    expect(asRenewal.error?.code).toBe(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    expect(await snapshot(u.accountId)).toEqual(before2);
  });

  it('one key sent ten times at once pays once; ten keys at once never run the wallet below zero', async () => {
    const u = await user();
    const one = price('localnet', 'full', 1);
    await credit(u.accountId, one * 3 + 7);
    const params = buyParams();
    const same = await Promise.all(
      Array.from({ length: 10 }, () => h.call('hub_buyDnNodeByWallet', params, { token: u.token })),
    );
    expect(same.every((r) => r.ok)).toBe(true);
    expect(new Set(same.map((r) => r.result!.order.id)).size).toBe(1);
    expect(await dnLedger(u.accountId)).toHaveLength(1);
    expect(await nodesOf(u.accountId)).toHaveLength(1);

    // Room for two more: of ten different keys at once, two buy and eight are refused for the balance.
    const many = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }),
      ),
    );
    expect(many.filter((r) => r.ok)).toHaveLength(2);
    expect(
      many.filter((r) => !r.ok).every((r) => r.error!.code === ERROR_CODES.INSUFFICIENT_BALANCE),
    ).toBe(true);
    expect(await nodesOf(u.accountId)).toHaveLength(3);
    expect(await walletCents(u.accountId)).toBe(7);
    await expectLedgerTrue(u.accountId);
  });

  it('a wallet short of the price is refused with 10701 and nothing is written', async () => {
    const u = await user();
    await credit(u.accountId, price('localnet', 'full', 1) - 1);
    const before = await snapshot(u.accountId);
    const res = await h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token });
    expect(res.error?.code).toBe(ERROR_CODES.INSUFFICIENT_BALANCE);
    expect(await snapshot(u.accountId)).toEqual(before);
    const none = await ok(h.call('hub_getUserDnNodeView', {}, { token: u.token }));
    expect(none).toMatchObject({ list: [], total: 0, page: 1, perPage: 5 });
  });

  it('bad input, another account’s node and the card path: the right code, and nothing changes', async () => {
    const u = await user();
    const other = await user();
    await credit(u.accountId, 100_000);
    await credit(other.accountId, 100_000);
    const theirs = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: other.token }));
    const mine = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
    const base = buyParams();
    const renewBase = {
      nodeId: mine.node.id,
      months: 1,
      idempotencyKey: idem(),
      expectedCents: price('localnet', 'full', 1),
    };
    const cases: Array<[string, string, Record<string, unknown>, number]> = [
      ['unknown chain', 'hub_buyDnNodeByWallet', { chain: 'no-such-chain' }, 10901],
      [
        'type the chain lacks',
        'hub_buyDnNodeByWallet',
        { chain: 'polygon', nodeType: 'archive', region: 'us-east' },
        10902,
      ],
      ['unknown node type', 'hub_buyDnNodeByWallet', { nodeType: 'light' }, 10004],
      ['unknown region', 'hub_buyDnNodeByWallet', { region: 'mars' }, 10903],
      ['region of another chain', 'hub_buyDnNodeByWallet', { region: 'us-east' }, 10903],
      ['period not sold', 'hub_buyDnNodeByWallet', { months: 2 }, 10904],
      ['zero months', 'hub_buyDnNodeByWallet', { months: 0 }, 10004],
      ['too many months', 'hub_buyDnNodeByWallet', { months: 37 }, 10004],
      ['fractional months', 'hub_buyDnNodeByWallet', { months: 1.5 }, 10004],
      [
        'a chain this server cannot run',
        'hub_buyDnNodeByWallet',
        { chain: 'ethereum', region: 'us-east', expectedCents: price('ethereum', 'full', 1) },
        10905,
      ],
      ['negative expectedCents', 'hub_buyDnNodeByWallet', { expectedCents: -1 }, 10004],
      ['huge expectedCents', 'hub_buyDnNodeByWallet', { expectedCents: 2 ** 60 }, 10004],
      ['expectedCents as a string', 'hub_buyDnNodeByWallet', { expectedCents: '500' }, 10004],
      ['a price the buyer did not see', 'hub_buyDnNodeByWallet', { expectedCents: 499 }, 10703],
      ['malformed idempotency key', 'hub_buyDnNodeByWallet', { idempotencyKey: 'short' }, 10004],
      ['missing expectedCents', 'hub_buyDnNodeByWallet', { expectedCents: undefined }, 10004],
      ['chain with odd characters', 'hub_buyDnNodeByWallet', { chain: 'Local Net!' }, 10004],
      ['malformed node id', 'hub_renewDnNodeByWallet', { nodeId: 'not-a-uuid' }, 10004],
      ['unknown node id', 'hub_renewDnNodeByWallet', { nodeId: randomUUID() }, 50404],
      ["another account's node", 'hub_renewDnNodeByWallet', { nodeId: theirs.node.id }, 50404],
      ['renewal period not sold', 'hub_renewDnNodeByWallet', { months: 2 }, 10904],
      ['renewal at a price not seen', 'hub_renewDnNodeByWallet', { expectedCents: 1 }, 10703],
      // No Stripe in this harness: the card methods say so (dn-card-payments.test.ts pays by card).
      ['card purchase, cards not configured', 'hub_buyDnNodeByCard', {}, 10801],
      ['card renewal, cards not configured', 'hub_renewDnNodeByCard', {}, 10801],
      [
        'card renewal of another account’s node, cards not configured',
        'hub_renewDnNodeByCard',
        { nodeId: theirs.node.id },
        10801,
      ],
      [
        'card renewal with a malformed card id',
        'hub_renewDnNodeByCard',
        { cardId: 'card_1' },
        10004,
      ],
    ];
    const before = [await snapshot(u.accountId), await snapshot(other.accountId)];
    const wrong: string[] = [];
    for (const [label, method, change, code] of cases) {
      const params = {
        ...(method.startsWith('hub_buy')
          ? { ...base, idempotencyKey: idem() }
          : { ...renewBase, idempotencyKey: idem() }),
        ...change,
      };
      const res = await h.raw({ method, params, id: 1 }, { token: u.token });
      if (res.error?.code !== code)
        wrong.push(`${label}: ${JSON.stringify(res.error ?? res.result)}`);
      // An answer about another's node says nothing of it.
      if (
        JSON.stringify(res).includes(theirs.node.id) &&
        !JSON.stringify(params).includes(theirs.node.id)
      )
        wrong.push(`${label} carries their node`);
    }
    expect(wrong).toEqual([]);
    expect([await snapshot(u.accountId), await snapshot(other.accountId)]).toEqual(before);
  });

  it('hub_getUserDnNodeView: SPEC §9 paging, newest first, a status filter, the account’s nodes only', async () => {
    const u = await user();
    const other = await user();
    await credit(u.accountId, 100_000);
    await credit(other.accountId, 100_000);
    await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: other.token }));
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const b = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
      ids.push(b.node.id);
      h.clock.advance(1000);
    }
    const first = await ok(h.call('hub_getUserDnNodeView', {}, { token: u.token }));
    expect(first.total).toBe(7);
    expect(first.perPage).toBe(5);
    expect(first.list.map((n) => n.id)).toEqual([...ids].reverse().slice(0, 5));
    const second = await ok(
      h.call('hub_getUserDnNodeView', { page: 2, perPage: 5 }, { token: u.token }),
    );
    expect(second.list.map((n) => n.id)).toEqual([...ids].reverse().slice(5));
    const asc = await ok(
      h.call('hub_getUserDnNodeView', { perPage: 20, sort: 'asc' }, { token: u.token }),
    );
    expect(asc.list.map((n) => n.id)).toEqual(ids);
    // An operator's stop (no method yet): the filter finds it, and only it.
    await db
      .update(dedicatedNodes)
      .set({ status: 'stopped' })
      .where(eq(dedicatedNodes.id, ids[2]!));
    const stopped = await ok(
      h.call('hub_getUserDnNodeView', { status: 'stopped' }, { token: u.token }),
    );
    expect(stopped.list.map((n) => n.id)).toEqual([ids[2]]);
    expect(stopped.total).toBe(1);
    const pending = await ok(
      h.call('hub_getUserDnNodeView', { status: 'pending', perPage: 20 }, { token: u.token }),
    );
    expect(pending.total).toBe(6);
    const past = await ok(h.call('hub_getUserDnNodeView', { page: 9 }, { token: u.token }));
    expect(past).toMatchObject({ list: [], total: 7, page: 9 });
    for (const bad of [{ page: 0 }, { perPage: 101 }, { status: 'deleted' }, { sort: 'up' }]) {
      const res = await h.raw(
        { method: 'hub_getUserDnNodeView', params: bad, id: 1 },
        { token: u.token },
      );
      expect(res.error?.code, JSON.stringify(bad)).toBe(ERROR_CODES.INVALID_PARAMS);
    }
  });

  it('a team account buys as the team (billing role); a viewer sees the node but is refused buying (10302)', async () => {
    const owner = await user();
    const billing = await user();
    const viewer = await user();
    const team = await ok(
      h.call('hub_createTeam', { teamName: 'Node team' }, { token: owner.token }),
    );
    for (const [who, role] of [
      [billing, 'billing'],
      [viewer, 'viewer'],
    ] as const) {
      const invite = await ok(
        h.call(
          'hub_addMember',
          { teamId: team.teamId, email: who.email, role },
          { token: owner.token },
        ),
      );
      await ok(h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: who.token }));
    }
    await credit(team.teamId, 10_000);
    await credit(billing.accountId, 10_000);
    const asBilling = { token: billing.token, teamId: team.teamId };
    const bought = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), asBilling));
    expect(bought.wallet.amountCents).toBe(10_000 - price('localnet', 'full', 1));
    const [row] = await db
      .select()
      .from(dedicatedNodes)
      .where(eq(dedicatedNodes.id, bought.node.id));
    expect(row!.accountId).toBe(team.teamId);
    const [order] = await db
      .select()
      .from(dedicatedNodeOrders)
      .where(eq(dedicatedNodeOrders.id, bought.order.id));
    expect(order!.userId).toBe(billing.userId);
    expect(await walletCents(billing.accountId)).toBe(10_000);
    expect(await nodesOf(billing.accountId)).toHaveLength(0);
    await expectLedgerTrue(team.teamId);

    const asViewer = { token: viewer.token, teamId: team.teamId };
    const view = await ok(h.call('hub_getUserDnNodeView', {}, asViewer));
    expect(view.list.map((n) => n.id)).toEqual([bought.node.id]);
    const before = await snapshot(team.teamId);
    for (const [method, params] of [
      ['hub_buyDnNodeByWallet', buyParams()],
      [
        'hub_renewDnNodeByWallet',
        { nodeId: bought.node.id, months: 1, idempotencyKey: idem(), expectedCents: 500 },
      ],
      ['hub_buyDnNodeByCard', buyParams()],
    ] as const) {
      const res = await h.raw({ method, params, id: 1 }, asViewer);
      expect(res.error?.code, method).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    }
    expect(await snapshot(team.teamId)).toEqual(before);
    // The billing member's personal login sees its own (empty) list, not the team's.
    const personal = await ok(h.call('hub_getUserDnNodeView', {}, { token: billing.token }));
    expect(personal.total).toBe(0);
  });

  /** Sweeps (real time passing, the test clock still) until the node is online. */
  async function sweepUntilOnline(nodeId: string, timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await sweepDedicatedNodes(h.server.deps);
      const [row] = await db.select().from(dedicatedNodes).where(eq(dedicatedNodes.id, nodeId));
      if (row!.status === 'online') return row!;
      if (Date.now() > deadline)
        throw new Error(`node not online: ${row!.status} ${row!.lastError ?? ''}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  async function chainIdAt(url: string): Promise<string> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(5000),
    });
    return ((await res.json()) as { result: string }).result;
  }

  async function refusesConnections(url: string): Promise<boolean> {
    try {
      await chainIdAt(url);
      return false;
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      return code === 'ECONNREFUSED';
    }
  }

  async function rowOf(nodeId: string) {
    const [row] = await db.select().from(dedicatedNodes).where(eq(dedicatedNodes.id, nodeId));
    return row!;
  }

  let gatewayChecks:
    | {
        viaGateway: (k: string) => Promise<{ status: number; body: { result?: string } }>;
        key: string;
        refresh: () => Promise<void>;
      }
    | undefined;
  let stopGateway: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stopGateway?.();
  });

  it('lifecycle with the local driver: online and answering, through the gateway, will_expired, expired and stopped, renewed in grace, refused after', async () => {
    // The other tests' nodes are left to no driver, so the sweeps below start this test's processes only.
    await db.update(dedicatedNodes).set({ driver: 'parked' });
    const u: TUser = await user();
    await credit(u.accountId, 10_000);
    const bought = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
    const nodeId = bought.node.id;
    const expiresAt = bought.node.expiresAt;

    // pending → online: provisioned (a Hardhat process), then answering eth_chainId.
    const online = await sweepUntilOnline(nodeId);
    expect(online.onlineAt!.getTime()).toBe(h.clock.now());
    const upstream = h.server.deps.dnDriver.upstreamUrl(online.driverRef!);
    expect(await chainIdAt(upstream.http)).toBe('0x7a69');
    expect(driver.running()).toBeGreaterThanOrEqual(1);
    const view = await ok(h.call('hub_getUserDnNodeView', {}, { token: u.token }));
    expect(view.list[0]).toMatchObject({ id: nodeId, status: 'online' });

    // Through the gateway's private endpoint: the owner's key reaches it, counted and charged no RUs; another
    // account's key does not.
    const gw = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000,
      healthCheckIntervalMs: 60_000,
      dnRefreshIntervalMs: 60_000, // re-read by hand below
    });
    try {
      const mine = await ok(h.call('hub_generateApiKey', { name: 'node' }, { token: u.token }));
      const stranger = await user();
      const theirs = await ok(
        h.call('hub_generateApiKey', { name: 'x' }, { token: stranger.token }),
      );
      await gw.refreshDedicatedNodes();
      const viaGateway = (k: string) =>
        fetch(`${gw.url}/dn/${nodeId}/${k}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { result?: string } }));
      expect(await viaGateway(mine.key)).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      });
      expect((await viaGateway(theirs.key)).status).toBe(404);
      await gw.gateway.flushUsage();
      const counted = await db
        .select({ chain: usageMinute.chain, requests: usageMinute.requests, ru: usageMinute.ru })
        .from(usageMinute)
        .where(eq(usageMinute.keyId, mine.keyId));
      expect(counted).toEqual([{ chain: `dn:${nodeId}`, requests: 1, ru: 0 }]);
      // Reports by network name the node (only the account's own; anything else keeps its id).
      const strangerNode = `dn:${randomUUID()}`;
      const names = await seriesNames(
        { db, accountId: u.accountId, chains: h.server.deps.chains } as unknown as TReport,
        'chain',
        [`dn:${nodeId}`, strangerNode, 'localnet'],
      );
      expect(names.get(`dn:${nodeId}`)?.name).toBe(
        `Dedicated node ${h.server.deps.chains.find((c) => c.id === 'localnet')!.name} ${nodeId.slice(0, 8)}`,
      );
      expect(names.get(strangerNode)?.name).toBe(strangerNode);
      gatewayChecks = { viaGateway, key: mine.key, refresh: () => gw.refreshDedicatedNodes() };
    } catch (err) {
      await gw.stop();
      throw err;
    }
    stopGateway = () => gw.stop();
    expect(view.list[0]!.history.map((e) => [e.status, e.reason])).toEqual([
      ['pending', 'ordered'],
      ['online', 'answering'],
    ]);

    // Two days before expiry: will_expired, once, with a normal_warn notice mailed by default.
    h.clock.advance(expiresAt - 2 * DAY - h.clock.now());
    // Two sweeps at once: one change, one event, one notice.
    await Promise.all([sweepDedicatedNodes(h.server.deps), sweepDedicatedNodes(h.server.deps)]);
    expect((await rowOf(nodeId)).status).toBe('will_expired');
    const warnings = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'normal_warn')));
    expect(warnings.map((n) => n.title)).toEqual(['Dedicated node expires soon']);
    expect(warnings[0]!.expand).toMatchObject({ leftDays: 2, timeStamp: expiresAt });
    expect(subjectOf(await h.smtp.nextMailTo(u.email))).toContain('Dedicated node expires soon');
    // Still serving until the expiry itself.
    expect(await chainIdAt(upstream.http)).toBe('0x7a69');

    // At expiry: expired, the process stopped (its port refuses connections), data kept for the grace period.
    h.clock.advance(expiresAt - h.clock.now());
    await Promise.all([sweepDedicatedNodes(h.server.deps), sweepDedicatedNodes(h.server.deps)]);
    const expired = await rowOf(nodeId);
    expect(expired.status).toBe('expired');
    expect(expired.stoppedAt!.getTime()).toBe(expiresAt);
    expect(await refusesConnections(upstream.http)).toBe(true);
    expect(driver.running()).toBe(0);
    // The gateway refuses the expired node (a clear 503, not its old address).
    await gatewayChecks!.refresh();
    expect((await gatewayChecks!.viaGateway(gatewayChecks!.key)).status).toBe(503);
    expect((await eventsOf(nodeId)).map((e) => [e.status, e.reason, e.at.getTime()])).toEqual([
      ['pending', 'ordered', bought.node.createdAt],
      ['online', 'answering', online.onlineAt!.getTime()],
      ['will_expired', 'expires_soon', expiresAt - 2 * DAY],
      ['expired', 'term_ended', expiresAt],
    ]);
    await sweepDedicatedNodes(h.server.deps);
    expect((await eventsOf(nodeId)).length).toBe(4);

    // Renewed within the grace period (a day after expiry): from now, pending, then online and answering again.
    h.clock.advance(DAY);
    const renewAt = h.clock.now();
    const renewParams = {
      nodeId,
      months: 1,
      idempotencyKey: idem(),
      expectedCents: price('localnet', 'full', 1),
    };
    const walletBefore = await walletCents(u.accountId);
    const token = await signIn(u);
    const renewed = await ok(h.call('hub_renewDnNodeByWallet', renewParams, { token }));
    expect(renewed.order).toMatchObject({
      kind: 'renew',
      expiresBefore: expiresAt,
      expiresAfter: addMonthsUtc(renewAt, 1),
    });
    expect(renewed.node).toMatchObject({
      status: 'pending',
      months: 2,
      expiresAt: addMonthsUtc(renewAt, 1),
    });
    // The same renewal again pays nothing more.
    const replay = await ok(h.call('hub_renewDnNodeByWallet', renewParams, { token }));
    expect(replay.order.id).toBe(renewed.order.id);
    expect(await walletCents(u.accountId)).toBe(walletBefore - renewParams.expectedCents);
    expect((await dnLedger(u.accountId)).map((l) => l.kind).sort()).toEqual([
      'dn_purchase',
      'dn_renewal',
    ]);
    await expectLedgerTrue(u.accountId);
    const back = await sweepUntilOnline(nodeId);
    expect(back.stoppedAt).toBeNull();
    await gatewayChecks!.refresh();
    expect((await gatewayChecks!.viaGateway(gatewayChecks!.key)).body.result).toBe('0x7a69');
    await stopGateway?.();
    stopGateway = undefined;
    expect(await chainIdAt(h.server.deps.dnDriver.upstreamUrl(back.driverRef!).http)).toBe(
      '0x7a69',
    );

    // A process lost while online (a console restart with the local driver) is started again by the next sweep.
    await h.server.deps.dnDriver.stop(back.driverRef!);
    const recovered = await sweepDedicatedNodes(h.server.deps);
    expect(recovered.recovered).toBe(1);
    const restarted = await rowOf(nodeId);
    expect(restarted.status).toBe('online');
    expect(restarted.driverGeneration).toBe(back.driverGeneration + 1);
    const restartedUrl = h.server.deps.dnDriver.upstreamUrl(restarted.driverRef!).http;
    const deadline = Date.now() + 90_000;
    while ((await refusesConnections(restartedUrl)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 300));
    expect(await chainIdAt(restartedUrl)).toBe('0x7a69');

    // Past the new expiry and its grace period: expired, data deleted, the process gone, renewal refused.
    const newExpiry = renewed.node.expiresAt;
    h.clock.advance(newExpiry + DN_GRACE_DAYS * DAY + 1 - h.clock.now());
    await sweepDedicatedNodes(h.server.deps);
    const gone = await rowOf(nodeId);
    expect(gone.dataDeletedAt!.getTime()).toBe(h.clock.now());
    expect(gone.driverRef).toBeNull();
    expect(await refusesConnections(restartedUrl)).toBe(true);
    expect(driver.running()).toBe(0);
    const history = (await eventsOf(nodeId)).map((e) => [e.status, e.reason]);
    expect(history.slice(4)).toEqual([
      ['pending', 'renewed_in_grace'],
      ['online', 'answering'],
      ['online', 'restarted'],
      ['expired', 'term_ended'],
      ['expired', 'data_deleted'],
    ]);
    const before = await snapshot(u.accountId);
    const refused = await h.call(
      'hub_renewDnNodeByWallet',
      { ...renewParams, idempotencyKey: idem() },
      { token: await signIn(u) },
    );
    expect(refused.error?.code).toBe(ERROR_CODES.DN_NOT_RENEWABLE);
    expect(await snapshot(u.accountId)).toEqual(before);
    const finalView = await ok(h.call('hub_getUserDnNodeView', {}, { token: await signIn(u) }));
    expect(finalView.list[0]).toMatchObject({ status: 'expired', isRenewable: false });
    expect(finalView.list[0]!.dataDeletedAt).toBe(h.clock.now());
  });

  it('a will_expired node renewed from the wallet is online again at once, its expiry counted from the old one', async () => {
    const u = await user();
    await credit(u.accountId, 10_000);
    const bought = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
    // As the sweep leaves it two days before expiry (no process needed for this).
    h.clock.advance(bought.node.expiresAt - 2 * DAY - h.clock.now());
    await db
      .update(dedicatedNodes)
      .set({ status: 'will_expired', driver: 'parked' })
      .where(eq(dedicatedNodes.id, bought.node.id));
    const renewed = await ok(
      h.call(
        'hub_renewDnNodeByWallet',
        {
          nodeId: bought.node.id,
          months: 3,
          idempotencyKey: idem(),
          expectedCents: price('localnet', 'full', 3),
        },
        { token: await signIn(u) },
      ),
    );
    expect(renewed.node.status).toBe('online');
    expect(renewed.node.expiresAt).toBe(addMonthsUtc(bought.node.expiresAt, 3));
    expect(renewed.node.months).toBe(4);
    expect(renewed.node.history.map((e) => [e.status, e.reason])).toEqual([
      ['pending', 'ordered'],
      ['online', 'renewed'],
    ]);
    expect(renewed.wallet.amountCents).toBe(
      10_000 - price('localnet', 'full', 1) - price('localnet', 'full', 3),
    );
    await expectLedgerTrue(u.accountId);
  });
  it('the lifecycle runs as jobs on the export job engine: a bought node comes online without a hand-run sweep', async () => {
    await db.update(dedicatedNodes).set({ driver: 'parked' });
    const u = await user();
    await credit(u.accountId, 10_000);
    const bought = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
    const stop = await startDnSweep(h.server.deps, { idleMs: 300, busyMs: 300 });
    try {
      const deadline = Date.now() + 90_000;
      while ((await rowOf(bought.node.id)).status !== 'online' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 300));
      expect((await rowOf(bought.node.id)).status).toBe('online');
    } finally {
      await stop();
    }
  });

  it('an operator stops a node (its process stopped, not recovered) and starts it again over the same data', async () => {
    await db.update(dedicatedNodes).set({ driver: 'parked' });
    const u = await user();
    await credit(u.accountId, 10_000);
    const bought = await ok(h.call('hub_buyDnNodeByWallet', buyParams(), { token: u.token }));
    const nodeId = bought.node.id;
    const online = await sweepUntilOnline(nodeId);
    const url = h.server.deps.dnDriver.upstreamUrl(online.driverRef!).http;

    expect(await stopNodeByOperator(h.server.deps, nodeId, 'abuse report')).toBe('stopped');
    expect(await stopNodeByOperator(h.server.deps, nodeId, 'again')).toBe('not_applicable');
    expect(await stopNodeByOperator(h.server.deps, randomUUID(), 'x')).toBe('not_found');
    expect(await startNodeByOperator(h.server.deps, randomUUID())).toBe('not_found');
    const stopped = await rowOf(nodeId);
    expect(stopped.status).toBe('stopped');
    expect(stopped.stoppedAt!.getTime()).toBe(h.clock.now());
    // The sweep stops its process and does not bring it back.
    await sweepDedicatedNodes(h.server.deps);
    await sweepDedicatedNodes(h.server.deps);
    expect(await refusesConnections(url)).toBe(true);
    expect((await rowOf(nodeId)).status).toBe('stopped');
    const told = await db.select().from(notices).where(eq(notices.accountId, u.accountId));
    expect(told.map((n) => n.title)).toContain('Dedicated node stopped');
    const view = await ok(h.call('hub_getUserDnNodeView', {}, { token: u.token }));
    expect(view.list[0]).toMatchObject({ id: nodeId, status: 'stopped' });

    expect(await startNodeByOperator(h.server.deps, nodeId)).toBe('started');
    expect(await startNodeByOperator(h.server.deps, nodeId)).toBe('not_applicable');
    const back = await sweepUntilOnline(nodeId);
    expect(back.stoppedAt).toBeNull();
    expect(await chainIdAt(h.server.deps.dnDriver.upstreamUrl(back.driverRef!).http)).toBe(
      '0x7a69',
    );
    expect((await eventsOf(nodeId)).map((e) => [e.status, e.reason])).toEqual([
      ['pending', 'ordered'],
      ['online', 'answering'],
      ['stopped', 'stopped_by_operator'],
      ['pending', 'started_by_operator'],
      ['online', 'answering'],
    ]);
  });
});
