/**
 * The third-party sign-in or binding this tab started. The state the server issued is kept in sessionStorage, so
 * /auth/callback and /bind/callback only finish what began here: a link forged elsewhere (login CSRF) is refused
 * before the server sees its code.
 */
import { callRpc } from './rpc-client';
import { STORAGE_KEY } from './storage-keys';

export type TOauthPurpose = 'login' | 'bind';
export type TOauthAttempt = { state: string; provider: string; purpose: TOauthPurpose };

/** Leaving the console for the provider; tests replace `assign`. */
export const externalNavigation = {
  assign: (url: string) => window.location.assign(url),
};

/** Only http(s) addresses are followed (SPEC §2: some protocols are always refused). */
function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Asks the server for the provider's authorization URL, remembers its state, and goes there. */
export async function startOauth(provider: string, purpose: TOauthPurpose): Promise<void> {
  const { url, state } =
    purpose === 'login'
      ? await callRpc('hub_getOauthLoginUrl', { provider })
      : await callRpc('hub_getOauthBindUrl', { provider });
  if (!isWebUrl(url)) throw new Error('The provider address is not a web address.');
  const attempt: TOauthAttempt = { state, provider, purpose };
  sessionStorage.setItem(STORAGE_KEY.oauthAttempt, JSON.stringify(attempt));
  externalNavigation.assign(url);
}

function parseAttempt(raw: string | null): TOauthAttempt | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<TOauthAttempt> | null;
    if (
      typeof value?.state === 'string' &&
      typeof value.provider === 'string' &&
      (value.purpose === 'login' || value.purpose === 'bind')
    ) {
      return { state: value.state, provider: value.provider, purpose: value.purpose };
    }
  } catch {
    // not ours
  }
  return null;
}

/**
 * The attempt a callback finishes, or null when none of `purpose` with this `state` began in this tab. The
 * stored entry is used up either way: a state is good for one callback.
 */
export function takeOauthAttempt(
  purpose: TOauthPurpose,
  state: string | null,
): TOauthAttempt | null {
  let attempt: TOauthAttempt | null = null;
  try {
    attempt = parseAttempt(sessionStorage.getItem(STORAGE_KEY.oauthAttempt));
    sessionStorage.removeItem(STORAGE_KEY.oauthAttempt);
  } catch {
    return null; // storage disabled: nothing can have been started here
  }
  if (!attempt || !state || attempt.state !== state || attempt.purpose !== purpose) return null;
  return attempt;
}
