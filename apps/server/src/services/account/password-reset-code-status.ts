import type { TParams, TResult } from '@rpc/contract';
import type { TRpcContext } from '../../rpc/context';
import { enforceCodeThrottle, inspectCode } from './one-time-codes';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'throttle' | 'ip'> &
  TParams<'hub_passwordResetCodeStatus'>;

/** Looks at a reset or set-password code without using it. */
export async function passwordResetCodeStatus(
  o: TOptions,
): Promise<TResult<'hub_passwordResetCodeStatus'>> {
  await enforceCodeThrottle(o, 'hub_passwordResetCodeStatus');
  const found = await inspectCode(o.db, {
    code: o.code,
    purposes: ['password_reset', 'password_set'],
    now: o.clock.now(),
  });
  return { status: found.status, email: found.email };
}
