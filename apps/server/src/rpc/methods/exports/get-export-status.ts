import { getExportStatus } from '../../../services/exports/get-export-status';
import { userHandler } from '../../define-handler';
import { asRpc } from './export-rpc-error';

export const getExportStatusHandler = userHandler('hub_getExportStatus', ({ ctx, auth, params }) =>
  asRpc(getExportStatus({ deps: ctx, caller: auth, params })),
);
