/** CSV export methods (SPEC §7 Wallet): background jobs that end in a file_download notice. */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZDepositExportParamsSchema,
  ZExportJobSchema,
  ZPurchaseExportParamsSchema,
} from './schemas';

export const hubGetViewUserDepositInfoCsv = defineMethod({
  name: 'hub_getViewUserDepositInfoCsv',
  summary:
    'Starts a CSV export of the acting account’s credited deposits with hub_getWalletDeposit’s filters (no ' +
    'paging), or returns the one already queued or running for the same filters. A file_download notice follows.',
  params: ZDepositExportParamsSchema,
  result: ZExportJobSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetViewUserPurchaseInfoCsv = defineMethod({
  name: 'hub_getViewUserPurchaseInfoCsv',
  summary:
    'Starts a CSV export of the acting account’s purchases with hub_getViewUserPurchaseInfo’s filters (no ' +
    'paging), or returns the one already queued or running for the same filters. A file_download notice follows.',
  params: ZPurchaseExportParamsSchema,
  result: ZExportJobSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetExportStatus = defineMethod({
  name: 'hub_getExportStatus',
  summary:
    'Status of one of the acting account’s exports; when done, a fresh download link valid for 24 hours ' +
    '(GET, no header needed). 50404 for an unknown id or another account’s export.',
  params: z.object({ exportId: z.uuid() }),
  result: ZExportJobSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

/** The export domain's methods, merged into the catalogue by ../methods.ts. */
export const EXPORT_METHODS = [
  hubGetViewUserDepositInfoCsv,
  hubGetViewUserPurchaseInfoCsv,
  hubGetExportStatus,
] as const;
