/**
 * POST /support/ticket (multipart): the ticket's own path (SPEC §7), signed in like every call (bearer token and
 * team header). Answers the API envelope; an error comes back as an RpcCallError the form shows in place.
 */
import {
  SUPPORT_TICKET_PATH,
  TEAM_ID_HEADER,
  ZSupportTicketCreatedSchema,
  type TRpcError,
  type TSupportTicketCreated,
  type TSupportTicketFields,
} from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { RpcCallError, TRANSPORT_ERROR_CODE } from '../../../lib/rpc-client';
import { COOKIE } from '../../../lib/storage-keys';
import { SUPPORT_TICKETS_QUERY_KEY } from './get-support-tickets';

const METHOD = 'support.ticket';

export type TCreateSupportTicketInput = TSupportTicketFields & { attachment?: File | null };

export async function createSupportTicket(
  input: TCreateSupportTicketInput,
): Promise<TSupportTicketCreated> {
  const form = new FormData();
  form.set('category', input.category);
  form.set('subject', input.subject);
  form.set('body', input.body);
  if (input.apiKeyId) form.set('apiKeyId', input.apiKeyId);
  if (input.attachment) form.set('attachment', input.attachment, input.attachment.name);

  const headers: Record<string, string> = {};
  const token = Cookies.get(COOKIE.token);
  if (token) headers.authorization = `Bearer ${token}`;
  const teamId = Cookies.get(COOKIE.teamId);
  if (teamId) headers[TEAM_ID_HEADER] = teamId;

  let status = 0;
  let body: unknown;
  try {
    // No content-type header: the browser sets multipart/form-data with its boundary.
    const response = await fetch(SUPPORT_TICKET_PATH, {
      method: 'POST',
      headers,
      body: form,
      credentials: 'same-origin',
    });
    status = response.status;
    body = await response.json().catch(() => undefined);
  } catch {
    body = undefined;
  }
  if (body && typeof body === 'object' && 'error' in body && body.error) {
    throw new RpcCallError(METHOD, body.error as TRpcError, status >= 400 ? status : undefined);
  }
  const parsed = ZSupportTicketCreatedSchema.safeParse(
    body && typeof body === 'object' && 'result' in body ? body.result : undefined,
  );
  if (!parsed.success) {
    throw new RpcCallError(
      METHOD,
      { code: TRANSPORT_ERROR_CODE, message: '', messageZh: '' },
      status || undefined,
    );
  }
  return parsed.data;
}

export function useCreateSupportTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSupportTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUPPORT_TICKETS_QUERY_KEY }),
  });
}
