/** Endpoint URLs from the chain catalogue's templates ({key} placeholder) and a ready-to-paste example. */

/** Replaces every {key} in the template; the key is URL-encoded so no character can change the path. */
export function buildEndpointUrl(template: string, key: string): string {
  return template.split('{key}').join(encodeURIComponent(key));
}

/** A POSIX shell single-quoted word of any text (a quote inside is closed, escaped and reopened). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A curl call of eth_blockNumber against the HTTPS URL, as a user would paste it into a shell. */
export function curlExample(httpsUrl: string): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  return `curl -X POST ${shellQuote(httpsUrl)} \\\n  -H 'Content-Type: application/json' \\\n  --data ${shellQuote(body)}`;
}

/** The key with all but its first and last four characters hidden. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '•'.repeat(key.length);
  return `${key.slice(0, 4)}${'•'.repeat(Math.min(key.length - 8, 16))}${key.slice(-4)}`;
}
