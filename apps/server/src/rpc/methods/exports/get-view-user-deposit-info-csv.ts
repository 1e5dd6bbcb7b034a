import { requestExport } from '../../../services/exports/request-export';
import { userHandler } from '../../define-handler';

export const getViewUserDepositInfoCsvHandler = userHandler(
  'hub_getViewUserDepositInfoCsv',
  ({ ctx, auth, params }) =>
    requestExport({ deps: ctx, caller: auth, kind: 'deposit', filter: params }),
);
