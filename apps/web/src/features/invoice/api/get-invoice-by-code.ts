/**
 * hub_getInvoiceViewByCode: the invoice behind a public code, for anyone (no session). 10400 means the code is not
 * live (unknown, mistyped or revoked); it is not retried and shows no popup (SPEC §8 getInvoice*).
 */
import { ERROR_CODES } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RpcCallError, callRpc } from '../../../lib/rpc-client';

export function getInvoiceByCode(code: string, signal?: AbortSignal) {
  return callRpc('hub_getInvoiceViewByCode', { code }, { signal });
}

export function isDeadLinkError(error: unknown): boolean {
  return (
    error instanceof RpcCallError &&
    (error.code === ERROR_CODES.LINK_INVALID || error.code === ERROR_CODES.INVALID_PARAMS)
  );
}

export function getInvoiceByCodeQueryOptions(code: string) {
  return queryOptions({
    queryKey: ['invoice-by-code', code],
    queryFn: ({ signal }) => getInvoiceByCode(code, signal),
    // An issued invoice does not change; a dead link stays dead.
    staleTime: Infinity,
    retry: (failures, error) => !isDeadLinkError(error) && failures < 2,
  });
}

export function useInvoiceByCode(code: string) {
  return useQuery(getInvoiceByCodeQueryOptions(code));
}
