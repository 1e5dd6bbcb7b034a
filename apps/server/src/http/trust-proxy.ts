/**
 * Fastify's trustProxy for TRUST_PROXY = n proxies of ours in front: the socket's peer and the n − 1 addresses our
 * proxies appended before it are trusted, so `request.ip` is the entry n places from the right of X-Forwarded-For
 * (the one our outermost proxy appended), never an entry the client wrote itself. Fastify's own number option trusts
 * nothing at all in this version (it fails closed), and `true` trusts every hop, which hands the client the choice
 * of its address (the left-most entry).
 */
export function trustProxyOption(
  hops: number,
): false | ((address: string, hop: number) => boolean) {
  return hops > 0 ? (_address, hop) => hop < hops : false;
}
