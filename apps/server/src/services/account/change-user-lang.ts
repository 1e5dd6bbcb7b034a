import type { TParams, TResult } from '@rpc/contract';
import { updateUser, type TUserUpdateOptions } from './update-user';

export async function changeUserLang(
  o: TUserUpdateOptions & TParams<'hub_changeUserLang'>,
): Promise<TResult<'hub_changeUserLang'>> {
  await updateUser(o, { language: o.lang });
  return { language: o.lang };
}
