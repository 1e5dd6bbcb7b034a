/** Rows of dedicated_nodes, their orders and events as the contract shows them, and the reads they share. */
import { DN_GRACE_DAYS, type TDnEventReason, type TDnNode, type TDnOrder } from '@rpc/contract';
import {
  dedicatedNodeEvents,
  type TDedicatedNodeEventRow,
  type TDedicatedNodeOrderRow,
  type TDedicatedNodeRow,
  type TExecutor,
} from '@rpc/db';
import { asc, inArray } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';

const DAY_MS = 86_400_000;
export const GRACE_MS = DN_GRACE_DAYS * DAY_MS;

export type TDnViewDeps = Pick<TDeps, 'config' | 'dnSkus'>;

/** Until the grace period ends (and the data is still there), an expired node can be renewed. */
export function isRenewable(node: TDedicatedNodeRow, now: number): boolean {
  return node.dataDeletedAt === null && now <= node.expiresAt.getTime() + GRACE_MS;
}

/** Every event of `nodeIds`, oldest first, by node. */
export async function historyOf(
  db: TExecutor,
  nodeIds: string[],
): Promise<Map<string, TDedicatedNodeEventRow[]>> {
  const byNode = new Map<string, TDedicatedNodeEventRow[]>();
  if (nodeIds.length === 0) return byNode;
  const rows = await db
    .select()
    .from(dedicatedNodeEvents)
    .where(inArray(dedicatedNodeEvents.nodeId, nodeIds))
    .orderBy(asc(dedicatedNodeEvents.seq));
  for (const row of rows) {
    const list = byNode.get(row.nodeId) ?? [];
    list.push(row);
    byNode.set(row.nodeId, list);
  }
  return byNode;
}

export function toDnNode(
  deps: TDnViewDeps,
  node: TDedicatedNodeRow,
  history: TDedicatedNodeEventRow[],
  now: number,
): TDnNode {
  const chain = deps.dnSkus.chains.find((c) => c.id === node.chain);
  const region = deps.dnSkus.regions.find((r) => r.id === node.region);
  const fill = (template: string) => template.replaceAll('{nodeId}', node.id);
  return {
    id: node.id,
    chain: node.chain,
    // A chain or region dropped from a later catalogue still names the nodes bought under it.
    chainName: chain?.name ?? { en: node.chain, zh: node.chain },
    nodeType: node.nodeType,
    region: node.region,
    regionName: region?.name ?? { en: node.region, zh: node.region },
    status: node.status,
    endpoint: {
      httpUrlTemplate: fill(deps.config.dnHttpUrlTemplate),
      wsUrlTemplate: fill(deps.config.dnWsUrlTemplate),
    },
    createdAt: node.createdAt.getTime(),
    onlineAt: node.onlineAt?.getTime() ?? null,
    expiresAt: node.expiresAt.getTime(),
    graceEndsAt: node.expiresAt.getTime() + GRACE_MS,
    dataDeletedAt: node.dataDeletedAt?.getTime() ?? null,
    months: node.months,
    isRenewable: isRenewable(node, now),
    autoRenew: false,
    history: history.map((e) => ({
      status: e.status,
      at: e.at.getTime(),
      // Written only from DN_EVENT_REASONS (node-transition.ts; older English rows mapped by migration 0017).
      reason: e.reason as TDnEventReason,
    })),
  };
}

export function toDnOrder(row: TDedicatedNodeOrderRow): TDnOrder {
  return {
    id: row.id,
    kind: row.kind,
    nodeId: row.nodeId,
    months: row.months,
    monthlyCents: row.monthlyCents,
    discountPercent: row.discountPercent,
    priceCents: row.priceCents,
    channel: row.channel,
    skuVersion: row.skuVersion,
    expiresBefore: row.expiresBefore?.getTime() ?? null,
    expiresAfter: row.expiresAfter.getTime(),
    createdAt: row.createdAt.getTime(),
  };
}

/** "Ethereum archive node (Europe (Frankfurt))", for notices. */
export function nodeLabel(deps: Pick<TDeps, 'dnSkus'>, node: TDedicatedNodeRow): string {
  const chain = deps.dnSkus.chains.find((c) => c.id === node.chain)?.name.en ?? node.chain;
  const region = deps.dnSkus.regions.find((r) => r.id === node.region)?.name.en ?? node.region;
  return `${chain} ${node.nodeType} node (${region})`;
}

/** The invoice line's name of a node order, in both languages. */
export function invoiceName(
  deps: Pick<TDeps, 'dnSkus'>,
  node: TDedicatedNodeRow,
  kind: 'buy' | 'renew',
): { en: string; zh: string } {
  const chain = deps.dnSkus.chains.find((c) => c.id === node.chain)?.name;
  const region = deps.dnSkus.regions.find((r) => r.id === node.region)?.name;
  const type = {
    en: node.nodeType === 'archive' ? 'archive' : 'full',
    zh: node.nodeType === 'archive' ? '归档' : '全',
  };
  return {
    en:
      `Dedicated ${type.en} node: ${chain?.en ?? node.chain}, ${region?.en ?? node.region}` +
      (kind === 'renew' ? ' (renewal)' : ''),
    zh:
      `专用${type.zh}节点：${chain?.zh ?? node.chain}，${region?.zh ?? node.region}` +
      (kind === 'renew' ? '（续费）' : ''),
  };
}
