/** Crypto deposit methods (SPEC §7 Wallet, channel "crypto"): coins, per-account addresses, deposits. */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZCoinSchema,
  ZDepositAddressSchema,
  ZDepositSchema,
  ZPaymentChannelFilterSchema,
  ZWalletPageParamsSchema,
  pagedResult,
} from '../wallet/schemas';

export const hubGetWalletCoinList = defineMethod({
  name: 'hub_getWalletCoinList',
  summary:
    'Coins and chains the wallet accepts deposits in (empty when deposits are not configured).',
  params: z.object({}),
  result: z.object({ list: z.array(ZCoinSchema) }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetDepositAddress = defineMethod({
  name: 'hub_getDepositAddress',
  summary:
    'The acting account’s deposit address on a chain (one per account and chain, derived from the operator’s xpub).',
  params: z.object({ chain: z.string().trim().min(1).max(64) }),
  result: ZDepositAddressSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetDepositAddressList = defineMethod({
  name: 'hub_getDepositAddressList',
  summary: 'Every deposit address the acting account has been given.',
  params: z.object({}),
  result: z.object({ list: z.array(ZDepositAddressSchema) }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetWalletDeposit = defineMethod({
  name: 'hub_getWalletDeposit',
  summary: 'Credited deposits of the acting account, paged, filtered by payment channel.',
  params: ZWalletPageParamsSchema.extend({ channel: ZPaymentChannelFilterSchema.default('all') }),
  result: pagedResult(ZDepositSchema),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetWalletDepositPending = defineMethod({
  name: 'hub_getWalletDepositPending',
  summary: 'Deposits seen on chain and waiting for confirmations.',
  params: z.object({}),
  result: z.object({ list: z.array(ZDepositSchema) }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubDelWalletDepositPending = defineMethod({
  name: 'hub_delWalletDepositPending',
  summary:
    'Hides a pending deposit from the list (it is still credited if it confirms); 50404 when unknown.',
  params: z.object({ id: z.uuid() }),
  result: z.object({ success: z.literal(true) }),
  auth: 'user',
  permission: 'billing',
  hideError: true,
});

/** The deposit domain's methods, merged into the catalogue by ../methods.ts. */
export const DEPOSIT_METHODS = [
  hubGetWalletCoinList,
  hubGetDepositAddress,
  hubGetDepositAddressList,
  hubGetWalletDeposit,
  hubGetWalletDepositPending,
  hubDelWalletDepositPending,
] as const;
