/** A fresh key for one purchase attempt; retries of the same attempt send the same key (hub_buyPackage). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  // Older browsers without randomUUID: 128 random bits as hex, still within the contract's 8–64 characters.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
