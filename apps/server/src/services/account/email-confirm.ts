import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { consumeCode, enforceCodeThrottle, inspectCode } from './one-time-codes';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'throttle' | 'ip'> & TParams<'hub_emailConfirm'>;

export async function emailConfirm(o: TOptions): Promise<TResult<'hub_emailConfirm'>> {
  await enforceCodeThrottle(o, 'hub_emailConfirm');
  const now = o.clock.now();
  const found = await inspectCode(o.db, { code: o.code, purposes: ['email_confirm'], now });
  if (found.status === 'used') throw new RpcError(ERROR_CODES.CODE_USED);
  if (found.status !== 'valid' || !found.id || !found.userId)
    throw new RpcError(ERROR_CODES.CONFIRM_CODE_INVALID);
  const { id, userId } = found;

  await o.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, { id, now }))) throw new RpcError(ERROR_CODES.CODE_USED);
    await tx
      .update(users)
      // Keep the first confirmation time if an older link confirmed the address already.
      .set({
        mailConfirmedAt: sql`coalesce(${users.mailConfirmedAt}, ${new Date(now).toISOString()}::timestamptz)`,
        updatedAt: new Date(now),
      })
      .where(eq(users.id, userId));
  });
  return { email: found.email ?? '', confirmed: true };
}
