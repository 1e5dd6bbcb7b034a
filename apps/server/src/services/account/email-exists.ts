import { METHODS, type TParams, type TResult } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db' | 'throttle' | 'ip'> & TParams<'hub_emailExists'>;

export async function emailExists(o: TOptions): Promise<TResult<'hub_emailExists'>> {
  await o.throttle.enforce({
    action: 'emailExists',
    email: o.email,
    ip: o.ip,
    limitType: METHODS.hub_emailExists.limitType ?? 'type1',
  });
  const [row] = await o.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, o.email))
    .limit(1);
  return { exists: row !== undefined };
}
