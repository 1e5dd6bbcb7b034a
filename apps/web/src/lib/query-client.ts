import { QueryClient } from '@tanstack/react-query';
import { isCancelledError } from './rpc-client';

/** TanStack Query defaults: the request client already shows errors, so queries do not retry them blindly. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A call cancelled by a route change or a duplicate is not worth repeating; others once.
        retry: (failureCount, error) => !isCancelledError(error) && failureCount < 1,
      },
      mutations: { retry: false },
    },
  });
}
