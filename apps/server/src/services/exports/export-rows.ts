/**
 * The rows of an export: read through the very services the list methods use (same filters, same order), page
 * by page, so a file holds exactly what the paged table shows, up to EXPORT_MAX_ROWS.
 */
import {
  EXPORT_MAX_ROWS,
  formatCents,
  type TDepositExportParams,
  type TExportKind,
  type TPurchaseExportParams,
} from '@rpc/contract';
import type { TDatabase } from '@rpc/db';
import type { TDepositSettings } from '../deposits/deposit-settings';
import { getWalletDeposit } from '../deposits/get-wallet-deposit';
import { getPurchaseHistory } from '../wallet/get-wallet-history';
import type { TCsvValue } from './csv';

const PAGE = 1000;

export type TExportTable = { header: string[]; rows: TCsvValue[][]; truncated: boolean };

type TDeps = { db: TDatabase; deposits: TDepositSettings };

function iso(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

export const DEPOSIT_COLUMNS = [
  'id',
  'creditedAt',
  'chain',
  'coin',
  'coinAmount',
  'amountBaseUnits',
  'usdAmount',
  'txHash',
  'logIndex',
  'blockNumber',
  'fromAddress',
  'toAddress',
  'confirmations',
  'status',
  'channel',
];

export const PURCHASE_COLUMNS = [
  'id',
  'createdAt',
  'skuId',
  'skuName',
  'packageType',
  'channel',
  'reason',
  'priceUsd',
  'discountUsd',
  'paidUsd',
  'ru',
  'packageId',
];

async function collect<T>(
  fetchPage: (page: number) => Promise<{ list: T[]; total: number }>,
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const { list, total } = await fetchPage(page);
    items.push(...list);
    if (items.length >= EXPORT_MAX_ROWS)
      return { items: items.slice(0, EXPORT_MAX_ROWS), truncated: total > EXPORT_MAX_ROWS };
    if (list.length < PAGE) return { items, truncated: false };
  }
}

export async function depositTable(
  deps: TDeps,
  accountId: string,
  filter: TDepositExportParams,
): Promise<TExportTable> {
  const { items, truncated } = await collect((page) =>
    getWalletDeposit({
      deps,
      auth: { account: { id: accountId } },
      params: { page, perPage: PAGE, sort: filter.sort, channel: filter.channel },
    }),
  );
  return {
    header: DEPOSIT_COLUMNS,
    truncated,
    rows: items.map((d) => [
      d.id,
      iso(d.creditedAt),
      d.chain,
      d.coin,
      d.coinAmount,
      d.amount,
      formatCents(d.usdCents),
      d.txHash,
      String(d.logIndex),
      String(d.blockNumber),
      d.fromAddress ?? '',
      d.toAddress,
      String(d.confirmations),
      d.status,
      d.channel,
    ]),
  };
}

export async function purchaseTable(
  deps: TDeps,
  accountId: string,
  filter: TPurchaseExportParams,
): Promise<TExportTable> {
  const { items, truncated } = await collect((page) =>
    getPurchaseHistory(deps.db, {
      accountId,
      params: {
        page,
        perPage: PAGE,
        sort: filter.sort,
        channel: filter.channel,
        packageType: filter.packageType,
      },
    }),
  );
  return {
    header: PURCHASE_COLUMNS,
    truncated,
    rows: items.map((p) => [
      p.id,
      iso(p.createdAt),
      p.skuId,
      p.skuName[filter.language],
      p.packageType,
      p.channel,
      p.reason,
      formatCents(p.priceCents),
      formatCents(p.discountCents),
      formatCents(p.paidCents),
      String(p.ru),
      p.packageId,
    ]),
  };
}

export function exportTable(
  deps: TDeps,
  kind: TExportKind,
  accountId: string,
  filter: Record<string, unknown>,
): Promise<TExportTable> {
  return kind === 'deposit'
    ? depositTable(deps, accountId, filter as TDepositExportParams)
    : purchaseTable(deps, accountId, filter as TPurchaseExportParams);
}
