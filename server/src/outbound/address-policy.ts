// Which addresses a request of ours may reach (docs/operations.md, Outbound requests): only
// public unicast ones. Everything else is refused: loopback, private (RFC 1918), link-local (with
// the cloud metadata address 169.254.169.254), CGNAT (100.64/10), multicast, unspecified,
// broadcast, reserved and documentation ranges, and in IPv6 anything outside global unicast
// (2000::/3): IPv4-mapped and -compatible addresses, NAT64 (64:ff9b::/96), unique-local (fc00::/7),
// site-local; inside it 6to4 (2002::/16) and Teredo (2001::/32), which tunnel to an IPv4 address
// of anyone's choosing, and the other special ranges ipaddr.js knows.
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why the address may not be reached (ipaddr.js's name of its range, or "not an IP address"), or
 * null when it is a public unicast address. `address` is a plain IP address, as dns.lookup answers
 * or as a URL's host holds it once parsed (IPv6 with or without brackets).
 */
export function refusedAddressReason(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Only the strict forms: ipaddr.parse also reads "0x7f.1" or "2130706433" as IPv4, which a URL
  // parser has already turned into dotted decimal, and which dns.lookup never answers.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'not global unicast';
  return null;
}

/** Whether the text is an IP address literal (v4 dotted decimal, or v6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}
