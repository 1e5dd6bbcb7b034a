/** Where the login page may send the user back to: only this site's dashboard paths and the invitation page. */

/** Signed-out pages that send the user to sign in and expect to be brought back. */
const RETURN_PAGES: readonly string[] = ['/invite-member'];

/** Returns the /rpc path (or a RETURN_PAGES path; without a locale prefix) from a `redirect` query value, or null. */
export function getSafeRedirect(raw: string | null, origin: string = window.location.origin) {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = url.pathname.replace(/^\/zh(?=\/|$)/, '');
  if (path !== '/rpc' && !path.startsWith('/rpc/') && !RETURN_PAGES.includes(path)) return null;
  return `${path}${url.search}${url.hash}`;
}
