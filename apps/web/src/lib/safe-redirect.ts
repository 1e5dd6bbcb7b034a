/** Where the login page may send the user back to: only this site's dashboard paths. */

/** Returns the /rpc path (without a locale prefix) from a `redirect` query value, or null. */
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
  if (path !== '/rpc' && !path.startsWith('/rpc/')) return null;
  return `${path}${url.search}${url.hash}`;
}
