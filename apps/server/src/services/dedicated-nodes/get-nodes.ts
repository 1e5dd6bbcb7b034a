/** hub_getUserDnNodeView: the acting account's nodes, paged (SPEC §9), with their history. */
import type { TParams, TResult } from '@rpc/contract';
import { dedicatedNodes } from '@rpc/db';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { TDnCaller } from './dn-error';
import { historyOf, toDnNode } from './node-rows';
import type { TDnDeps } from './wallet-order';

export async function getDnNodeView(
  deps: Pick<TDnDeps, 'db' | 'clock' | 'config' | 'dnSkus'>,
  caller: TDnCaller,
  params: TParams<'hub_getUserDnNodeView'>,
): Promise<TResult<'hub_getUserDnNodeView'>> {
  const where = and(
    eq(dedicatedNodes.accountId, caller.accountId),
    params.status === 'all' ? undefined : eq(dedicatedNodes.status, params.status),
  );
  const order = params.sort === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(dedicatedNodes)
      .where(where)
      .orderBy(order(dedicatedNodes.createdAt), order(dedicatedNodes.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    deps.db.select({ n: count() }).from(dedicatedNodes).where(where),
  ]);
  const history = await historyOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const now = deps.clock.now();
  return {
    list: rows.map((r) => toDnNode(deps, r, history.get(r.id) ?? [], now)),
    total: total?.n ?? 0,
    page: params.page,
    perPage: params.perPage,
  };
}
