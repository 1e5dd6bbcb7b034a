import { saveEventTracking } from '../../../services/support/save-event-tracking';
import { userHandler } from '../../define-handler';
import { asRpc } from './support-rpc-error';

export const saveEventTrackingHandler = userHandler(
  'hub_saveEventTracking',
  ({ ctx, auth, params }) =>
    asRpc(saveEventTracking({ deps: ctx, caller: { ...auth, ip: ctx.ip }, events: params.events })),
);
