import type { TResult } from '@rpc/contract';
import { updateUser, type TUserUpdateOptions } from './update-user';

/** Accepting the terms is the last step of first login, so it also initialises the account. */
export async function setUserAcceptTerm(
  o: TUserUpdateOptions,
): Promise<TResult<'hub_setUserAcceptTerm'>> {
  await updateUser(o, { acceptTerm: true, initialized: true });
  return { acceptTerm: true, initialize: true };
}
