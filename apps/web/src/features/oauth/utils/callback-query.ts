/** What a provider sends back to /auth/callback and /bind/callback. */

/** Longest provider error shown: the text comes from the URL, so anyone can write it. */
const MAX_ERROR_LENGTH = 100;

export type TCallbackQuery = {
  code: string | null;
  state: string | null;
  /** the provider's error code (RFC 6749 §4.1.2.1), e.g. access_denied */
  error: string | null;
};

export function readCallbackQuery(params: URLSearchParams): TCallbackQuery {
  const error = params.get('error')?.trim();
  return {
    code: params.get('code'),
    state: params.get('state'),
    error: error ? error.slice(0, MAX_ERROR_LENGTH) : null,
  };
}

/** The provider's display name from the public config, or its id. */
export function providerName(
  id: string | null | undefined,
  providers: readonly { id: string; name: string }[],
): string | null {
  if (!id) return null;
  return providers.find((provider) => provider.id === id)?.name ?? id;
}
