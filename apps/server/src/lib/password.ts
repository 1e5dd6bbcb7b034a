/** argon2id over the client's md5 digest (SPEC §5, ARCHITECTURE.md); cost is injectable so tests run fast. */
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

export type TArgon2Cost = { memoryCost: number; timeCost: number; parallelism: number };

export type TPasswordHasher = {
  hash: (digest: string) => Promise<string>;
  verify: (hash: string, digest: string) => Promise<boolean>;
  /** Spends the same time as a failed verify; used when there is no user, so timing reveals nothing. */
  verifyDummy: (digest: string) => Promise<false>;
};

/** Cheap parameters for tests only. */
export const TEST_ARGON2_COST: TArgon2Cost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export function createPasswordHasher(cost?: TArgon2Cost): TPasswordHasher {
  // Without a cost, argon2's own argon2id defaults apply (the production setting).
  const options = { type: argon2.argon2id, ...(cost ?? {}) };
  let dummy: Promise<string> | undefined;
  return {
    hash: (digest) => argon2.hash(digest, options),
    verify: async (hash, digest) => {
      try {
        return await argon2.verify(hash, digest);
      } catch {
        // A malformed stored hash is a failed check, not a 500.
        return false;
      }
    },
    verifyDummy: async (digest) => {
      dummy ??= argon2.hash(randomBytes(16).toString('hex'), options);
      await argon2.verify(await dummy, digest).catch(() => false);
      return false;
    },
  };
}
