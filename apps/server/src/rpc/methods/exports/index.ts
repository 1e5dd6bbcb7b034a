/** Handlers of the export domain (packages/contract/src/exports/methods.ts). */
import type { EXPORT_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { getExportStatusHandler } from './get-export-status';
import { getViewUserDepositInfoCsvHandler } from './get-view-user-deposit-info-csv';
import { getViewUserPurchaseInfoCsvHandler } from './get-view-user-purchase-info-csv';

export const EXPORT_HANDLERS: {
  [N in TNamesOf<typeof EXPORT_METHODS>]: THandler<N>;
} = {
  hub_getViewUserDepositInfoCsv: getViewUserDepositInfoCsvHandler,
  hub_getViewUserPurchaseInfoCsv: getViewUserPurchaseInfoCsvHandler,
  hub_getExportStatus: getExportStatusHandler,
};
