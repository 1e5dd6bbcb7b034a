import type { TParams, TResult } from '@rpc/contract';
import { updateUser, type TUserUpdateOptions } from './update-user';

export async function setUserNickname(
  o: TUserUpdateOptions & TParams<'hub_setUserNickname'>,
): Promise<TResult<'hub_setUserNickname'>> {
  await updateUser(o, { nickname: o.nickname });
  return { nickname: o.nickname };
}
