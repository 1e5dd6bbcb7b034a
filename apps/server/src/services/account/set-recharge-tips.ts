import type { TParams, TResult } from '@rpc/contract';
import { updateUser, type TUserUpdateOptions } from './update-user';

export async function setRechargeTips(
  o: TUserUpdateOptions & TParams<'hub_setRechargeTips'>,
): Promise<TResult<'hub_setRechargeTips'>> {
  await updateUser(o, { rechargeTips: o.rechargeTips });
  return { rechargeTips: o.rechargeTips };
}
