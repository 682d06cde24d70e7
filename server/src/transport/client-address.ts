// The address a request comes from. Behind a proxy the socket's peer is the proxy, and the
// client is named in X-Forwarded-For; that header is taken only from proxies the operator trusts
// (TRUSTED_PROXIES), since anyone else can write anything in it. Per-address limits count this.

/** `::ffff:10.0.0.1` and `10.0.0.1` are one IPv4 address. */
function normalise(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice('::ffff:'.length) : a;
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then the right-most
 * address of X-Forwarded-For that is not itself a trusted proxy (proxies append on the right).
 */
export function clientAddress(peer: string, forwardedFor: string, trustedProxies: readonly string[]): string {
  const trusted = new Set(trustedProxies.map(normalise));
  let address = normalise(peer);
  if (!trusted.has(address) || forwardedFor === '') return address;
  const hops = forwardedFor.split(',').map(normalise).filter(Boolean);
  while (hops.length > 0 && trusted.has(address)) address = hops.pop()!;
  return address;
}
