/**
 * Where help lives. The gateway guide is a console page; the terms of service and the privacy policy are
 * outside it, set at build time (VITE_TERMS_URL, VITE_PRIVACY_URL): the defaults are placeholders to replace.
 */
const fromEnv = (value: string | undefined, fallback: string): string => value?.trim() || fallback;

/** The endpoint page's "Using the gateway" tab: requests, batches, WebSocket, errors and limits. */
export const GATEWAY_GUIDE_PATH = '/rpc/endpoint?tab=guide';

export const HELP_LINKS = {
  terms: fromEnv(import.meta.env.VITE_TERMS_URL, 'https://example.com/terms'),
  privacy: fromEnv(import.meta.env.VITE_PRIVACY_URL, 'https://example.com/privacy'),
  /** offered when a wallet sign-in finds no wallet in the browser */
  installWallet: 'https://metamask.io/download/',
} as const;

/** A mailto: link to `address`, or undefined when it is not an e-mail address. */
export function supportMailto(address: string | undefined): string | undefined {
  const trimmed = address?.trim() ?? '';
  return /^[^\s@]+@[^\s@]+$/.test(trimmed) ? `mailto:${trimmed}` : undefined;
}
