/** Handlers of the support domain (packages/contract/src/support/methods.ts); tickets are filed by http/support-ticket-route.ts. */
import type { SUPPORT_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { getBannerHandler } from './get-banner';
import { getSupportTicketsHandler } from './get-support-tickets';
import { saveEventTrackingHandler } from './save-event-tracking';

export const SUPPORT_HANDLERS: {
  [N in TNamesOf<typeof SUPPORT_METHODS>]: THandler<N>;
} = {
  hub_getSupportTickets: getSupportTicketsHandler,
  hub_getBanner: getBannerHandler,
  hub_saveEventTracking: saveEventTrackingHandler,
};
