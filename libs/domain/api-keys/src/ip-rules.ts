import ipaddr from 'ipaddr.js';

/** A parsed allowlist rule: an address range in CIDR form. */
export interface IpRule {
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

/**
 * Normalises an address: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) becomes plain IPv4, so rules
 * written either way match. Returns null for text that is not an IP address.
 */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(text.trim());
  } catch {
    return null;
  }
}

/** Accepts `1.2.3.4`, `10.0.0.0/8`, `2001:db8::1`, `2001:db8::/32`, `::ffff:1.2.3.4`. Null if invalid. */
export function parseRule(text: string): IpRule | null {
  const trimmed = text.trim();
  try {
    if (trimmed.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(trimmed);
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return { range: [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] };
      }
      return { range: [address, bits] };
    }
    const address = parseIp(trimmed);
    if (!address) return null;
    return { range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  } catch {
    return null;
  }
}

/** Canonical text for storage (network address + prefix length). */
export function canonicalRule(rule: IpRule): string {
  const [address, bits] = rule.range;
  const network = address.kind() === 'ipv4'
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return `${network.toString()}/${bits}`;
}

export function ipMatchesAny(ip: string, rules: IpRule[]): boolean {
  const address = parseClientIp(ip);
  if (!address) return false;
  return rules.some(({ range }) => range[0].kind() === address.kind() && address.match(range));
}

/**
 * Client addresses repeat from request to request: parse each once. Bounded (cleared when full),
 * so a client rotating addresses cannot grow it.
 */
const parsedClientIps = new Map<string, ReturnType<typeof parseIp>>();
const MAX_PARSED_CLIENT_IPS = 10_000;

function parseClientIp(ip: string): ReturnType<typeof parseIp> {
  let address = parsedClientIps.get(ip);
  if (address === undefined) {
    if (parsedClientIps.size >= MAX_PARSED_CLIENT_IPS) parsedClientIps.clear();
    address = parseIp(ip);
    parsedClientIps.set(ip, address);
  }
  return address;
}
