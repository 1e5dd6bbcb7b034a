import { requestExport } from '../../../services/exports/request-export';
import { userHandler } from '../../define-handler';

export const getViewUserPurchaseInfoCsvHandler = userHandler(
  'hub_getViewUserPurchaseInfoCsv',
  ({ ctx, auth, params }) =>
    requestExport({ deps: ctx, caller: auth, kind: 'purchase', filter: params }),
);
