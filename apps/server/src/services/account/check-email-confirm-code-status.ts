import type { TParams, TResult } from '@rpc/contract';
import type { TRpcContext } from '../../rpc/context';
import { enforceCodeThrottle, inspectCode } from './one-time-codes';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'throttle' | 'ip'> &
  TParams<'hub_checkEmailConfirmCodeStatus'>;

/** Looks at a confirmation code without using it. */
export async function checkEmailConfirmCodeStatus(
  o: TOptions,
): Promise<TResult<'hub_checkEmailConfirmCodeStatus'>> {
  await enforceCodeThrottle(o, 'hub_checkEmailConfirmCodeStatus');
  const found = await inspectCode(o.db, {
    code: o.code,
    purposes: ['email_confirm'],
    now: o.clock.now(),
  });
  return { status: found.status, email: found.email };
}
