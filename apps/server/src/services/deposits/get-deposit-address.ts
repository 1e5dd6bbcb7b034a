/**
 * The acting account's address on a chain, made on first request: child `index` of the chain's xpub, where an
 * account keeps one index on every chain. So an address belongs to one account everywhere, and a deposit sent on
 * the wrong chain of the same xpub still reaches its owner (if that chain is watched).
 */
import { depositAddresses, type TDatabase } from '@rpc/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import { DepositError, type TDepositCaller } from './deposit-error';
import { deriveAddress, parseXpub } from './derive-address';
import { findDepositChain, type TDepositChain, type TDepositSettings } from './deposit-settings';

type TDeps = { db: TDatabase; deposits: TDepositSettings };

/** 10707 when no chain takes deposits at all, 10708 for a chain that does not. */
export function requireDepositChain(settings: TDepositSettings, chain: string): TDepositChain {
  if (settings.chains.length === 0) throw new DepositError('not_configured');
  const found = findDepositChain(settings, chain);
  if (!found) throw new DepositError('chain_unsupported');
  return found;
}

export async function getDepositAddress(o: {
  deps: TDeps;
  auth: TDepositCaller;
  params: { chain: string };
}): Promise<{ chain: string; address: string; coins: string[] }> {
  const chain = requireDepositChain(o.deps.deposits, o.params.chain);
  const address = await allocateDepositAddress(o.deps.db, o.auth.account.id, chain);
  return { chain: chain.chain, address, coins: chain.coins.map((c) => c.coin) };
}

const ATTEMPTS = 5;

/** Idempotent: the stored address when there is one. Safe under concurrency (lock, then unique indexes). */
export async function allocateDepositAddress(
  db: TDatabase,
  accountId: string,
  chain: TDepositChain,
): Promise<string> {
  const scoped = and(
    eq(depositAddresses.accountId, accountId),
    eq(depositAddresses.chain, chain.chain),
  );
  const [existing] = await db
    .select({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(scoped);
  if (existing) return existing.address;
  const key = parseXpub(chain.xpub);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        // Allocation happens once per account and chain: serialising it is cheap, and it is what keeps a new
        // index unique across chains (the unique index is per chain only). It does not block readers.
        await tx.execute(sql`lock table deposit_addresses in share row exclusive mode`);
        const [own] = await tx
          .select({ address: depositAddresses.address })
          .from(depositAddresses)
          .where(scoped);
        if (own) return own.address;
        const [sibling] = await tx
          .select({ index: depositAddresses.derivationIndex })
          .from(depositAddresses)
          .where(eq(depositAddresses.accountId, accountId))
          .orderBy(asc(depositAddresses.createdAt))
          .limit(1);
        let index = sibling?.index;
        if (index === undefined) {
          const [top] = await tx
            .select({ max: sql<number | null>`max(${depositAddresses.derivationIndex})` })
            .from(depositAddresses);
          index = top?.max === null || top?.max === undefined ? 0 : Number(top.max) + 1;
        }
        const address = deriveAddress(key, index);
        await tx
          .insert(depositAddresses)
          .values({ accountId, chain: chain.chain, address, derivationIndex: index });
        return address;
      });
    } catch (err) {
      // Another process (with a database that ignored the lock, or a racing first insert) took the slot.
      if (!isUniqueViolation(err) || attempt >= ATTEMPTS) throw err;
    }
  }
}
