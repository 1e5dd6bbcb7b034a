/**
 * RU budgets in memory: what each account may still spend in this process, with RUs held by admitted calls.
 * A call is admitted only while the account's available RUs (spendable − held) are positive, and its estimate is
 * held until it is settled, so a process overdraws an account by at most one call (docs/security.md).
 */
import type { AccountBalance } from './types';

export class RuBudget implements AccountBalance {
  /** The balance as last known, minus what this process charged since. */
  protected readonly spendable = new Map<string, number>();
  /** RUs held by calls admitted and not yet settled. */
  private readonly held = new Map<string, number>();

  constructor(initial: Iterable<[string, number]> = []) {
    for (const [id, ru] of initial) this.spendable.set(id, ru);
  }

  /** Spendable minus held; an account never heard of has nothing. */
  available(accountId: string): number {
    return (this.spendable.get(accountId) ?? 0) - (this.held.get(accountId) ?? 0);
  }

  hasRu(accountId: string): boolean {
    return this.available(accountId) > 0;
  }

  /**
   * Admits a group of calls estimated at `ru` in all, whose last call is estimated at `lastCallRu`: every call but
   * the last must fit in what is available, and the last must start with something left. A single call (ru ===
   * lastCallRu) needs only a positive balance.
   */
  reserve(accountId: string, ru: number, lastCallRu: number): boolean {
    if (this.available(accountId) - (ru - lastCallRu) <= 0) return false;
    this.held.set(accountId, (this.held.get(accountId) ?? 0) + ru);
    return true;
  }

  settle(accountId: string, reserved: number, charged: number): void {
    const left = (this.held.get(accountId) ?? 0) - reserved;
    // Set to 0 rather than deleted: an account's hold goes to 0 after nearly every call, and a Map that deletes
    // and re-adds a key per call fills with deleted slots and rehashes itself every few hundred calls. The entries
    // kept are the accounts this process has served, which `spendable` holds anyway.
    this.held.set(accountId, left > 0 ? left : 0);
    if (charged !== 0) {
      const current = this.spendable.get(accountId);
      if (current !== undefined) this.spendable.set(accountId, current - charged);
      this.charged(accountId, charged);
    }
  }

  /** RUs held right now (tests: every path must end with nothing held). */
  heldRu(accountId: string): number {
    return this.held.get(accountId) ?? 0;
  }

  /** Sets what an account may spend (a re-sync from the ledger, a test). */
  set(accountId: string, ru: number): void {
    this.spendable.set(accountId, ru);
  }

  /** Hook for subclasses that track charged RUs (e.g. until their usage batch is written). */
  protected charged(_accountId: string, _ru: number): void {}
}

/** The default when no balance is wired: every account may spend, nothing is tracked. */
export const unlimitedBalance: AccountBalance = {
  hasRu: () => true,
  reserve: () => true,
  settle: () => {},
};
