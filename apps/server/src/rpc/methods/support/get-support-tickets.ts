import { getSupportTickets } from '../../../services/support/get-support-tickets';
import { userHandler } from '../../define-handler';

export const getSupportTicketsHandler = userHandler(
  'hub_getSupportTickets',
  ({ ctx, auth, params }) => getSupportTickets({ deps: ctx, caller: auth, params }),
);
