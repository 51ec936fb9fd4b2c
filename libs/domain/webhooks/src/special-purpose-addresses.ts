import ipaddr from 'ipaddr.js';

/**
 * Where an address leads, for the webhook URL rules:
 * - `public`: global unicast outside every IANA special-purpose range (any mode may send there);
 * - `local`: loopback or a private network (RFC 1918, IPv6 unique-local), which test mode may reach
 *   only where the operator allows it;
 * - `forbidden`: everything else — link-local (cloud metadata at 169.254.169.254), unspecified,
 *   multicast, documentation, benchmarking, translation and tunnel prefixes, reserved space.
 */
export type AddressScope = 'public' | 'local' | 'forbidden';

type Ranges = Array<[string, number]>;

/** The IANA IPv4 Special-Purpose Address Registry, plus multicast; 240.0.0.0/4 covers broadcast. */
const IPV4_SPECIAL: Ranges = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const IPV4_LOCAL: Ranges = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];

/**
 * The IANA IPv6 Special-Purpose Address Registry inside global unicast (2000::/3). Everything outside
 * 2000::/3 — ::/96 IPv4-compatible, 64:ff9b:1::/48 local NAT64, 100::/64 discard, fc00::/7, fec0::/10
 * site-local, fe80::/10, ff00::/8 — is refused by not being global unicast at all.
 * 2001::/23 holds Teredo (2001::/32), benchmarking, ORCHID and the IETF's anycast assignments;
 * 2002::/16 is 6to4, refused rather than trusted to embed a public IPv4 address.
 */
const IPV6_GLOBAL_UNICAST: [string, number] = ['2000::', 3];
const IPV6_SPECIAL: Ranges = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
];
const IPV6_LOCAL: Ranges = [
  ['::1', 128],
  ['fc00::', 7],
];
/** IPv4 addresses seen through IPv6: judged by the IPv4 address they carry. */
const IPV4_MAPPED: [string, number] = ['::ffff:0:0', 96];
/** The well-known NAT64 prefix (RFC 6052) only ever reaches the IPv4 address it embeds. */
const NAT64_WELL_KNOWN: [string, number] = ['64:ff9b::', 96];

const parsed = <T extends ipaddr.IPv4 | ipaddr.IPv6>(ranges: Ranges) => ranges.map(([address, bits]) => [ipaddr.parse(address) as T, bits] as [T, number]);
const v4Special = parsed<ipaddr.IPv4>(IPV4_SPECIAL);
const v4Local = parsed<ipaddr.IPv4>(IPV4_LOCAL);
const v6Special = parsed<ipaddr.IPv6>(IPV6_SPECIAL);
const v6Local = parsed<ipaddr.IPv6>(IPV6_LOCAL);
const [v6GlobalUnicast, v4Mapped, nat64] = parsed<ipaddr.IPv6>([IPV6_GLOBAL_UNICAST, IPV4_MAPPED, NAT64_WELL_KNOWN]);

const within = <T extends ipaddr.IPv4 | ipaddr.IPv6>(address: T, ranges: Array<[T, number]>) => ranges.some((range) => address.match(range));

function ipv4Scope(address: ipaddr.IPv4): AddressScope {
  if (within(address, v4Local)) return 'local';
  return within(address, v4Special) ? 'forbidden' : 'public';
}

/** The IPv4 address in the low 32 bits of an IPv6 address. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

/** The scope of an IP address (text as a resolver or a URL host gives it); not an IP address → forbidden. */
export function addressScope(text: string): AddressScope {
  if (!ipaddr.isValid(text)) return 'forbidden';
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return ipv4Scope(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  if (v6.match(v4Mapped)) return ipv4Scope(embeddedIpv4(v6));
  if (v6.match(nat64)) return ipv4Scope(embeddedIpv4(v6)) === 'public' ? 'public' : 'forbidden';
  if (within(v6, v6Local)) return 'local';
  return v6.match(v6GlobalUnicast) && !within(v6, v6Special) ? 'public' : 'forbidden';
}
