/** Issue, inspect and consume the single-use codes mailed in links. */
import { oneTimeCodes, users, type TExecutor, type TOneTimeCodePurpose } from '@rpc/db';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { METHODS } from '@rpc/contract';
import { createOpaqueToken, sha256Hex } from '../../lib/secrets';
import type { TRpcContext } from '../../rpc/context';

export type TCodeStatus = 'valid' | 'used' | 'expired' | 'invalid';

export async function issueCode(
  db: TExecutor,
  o: { userId: string; purpose: TOneTimeCodePurpose; now: number; ttlMs: number },
): Promise<string> {
  const code = createOpaqueToken();
  await db.insert(oneTimeCodes).values({
    userId: o.userId,
    purpose: o.purpose,
    codeHash: sha256Hex(code),
    expiresAt: new Date(o.now + o.ttlMs),
    createdAt: new Date(o.now),
  });
  return code;
}

type TCodeMethod =
  | 'hub_emailConfirm'
  | 'hub_checkEmailConfirmCodeStatus'
  | 'hub_passwordResetCodeStatus'
  | 'hub_passwordReset';

/** Counts one call of a code method against the client IP (one counter for all four), before any work. */
export function enforceCodeThrottle(
  o: Pick<TRpcContext, 'throttle' | 'ip'>,
  method: TCodeMethod,
): Promise<void> {
  return o.throttle.enforce({
    action: 'oneTimeCode',
    email: null,
    ip: o.ip,
    limitType: METHODS[method].limitType ?? 'type3',
  });
}

export type TInspectedCode = {
  status: TCodeStatus;
  id: string | null;
  userId: string | null;
  purpose: TOneTimeCodePurpose | null;
  email: string | null;
};

export async function inspectCode(
  db: TExecutor,
  o: { code: string; purposes: TOneTimeCodePurpose[]; now: number },
): Promise<TInspectedCode> {
  const [row] = await db
    .select({
      id: oneTimeCodes.id,
      userId: oneTimeCodes.userId,
      purpose: oneTimeCodes.purpose,
      expiresAt: oneTimeCodes.expiresAt,
      usedAt: oneTimeCodes.usedAt,
      email: users.email,
    })
    .from(oneTimeCodes)
    .innerJoin(users, eq(users.id, oneTimeCodes.userId))
    .where(
      and(eq(oneTimeCodes.codeHash, sha256Hex(o.code)), inArray(oneTimeCodes.purpose, o.purposes)),
    )
    .limit(1);
  if (!row) return { status: 'invalid', id: null, userId: null, purpose: null, email: null };
  // "used" wins over "expired": the client answers a used link silently (10020).
  const status: TCodeStatus = row.usedAt
    ? 'used'
    : row.expiresAt.getTime() <= o.now
      ? 'expired'
      : 'valid';
  return { status, id: row.id, userId: row.userId, purpose: row.purpose, email: row.email };
}

/** Marks the code used; false when another request used it first (the conditional update is the lock). */
export async function consumeCode(db: TExecutor, o: { id: string; now: number }): Promise<boolean> {
  const rows = await db
    .update(oneTimeCodes)
    .set({ usedAt: new Date(o.now) })
    .where(and(eq(oneTimeCodes.id, o.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return rows.length === 1;
}

/** Ends every other outstanding code of these purposes, e.g. older reset links after a reset. */
export async function voidCodes(
  db: TExecutor,
  o: { userId: string; purposes: TOneTimeCodePurpose[]; now: number },
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ usedAt: new Date(o.now) })
    .where(
      and(
        eq(oneTimeCodes.userId, o.userId),
        inArray(oneTimeCodes.purpose, o.purposes),
        isNull(oneTimeCodes.usedAt),
      ),
    );
}
