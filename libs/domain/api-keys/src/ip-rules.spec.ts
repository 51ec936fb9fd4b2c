import { canonicalRule, ipMatchesAny, parseRule, type IpRule } from './ip-rules';

const rules = (...texts: string[]): IpRule[] => texts.map((t) => parseRule(t) as IpRule);

describe('IP allowlist rules', () => {
  it('matches a single IPv4 address exactly', () => {
    expect(ipMatchesAny('203.0.113.7', rules('203.0.113.7'))).toBe(true);
    expect(ipMatchesAny('203.0.113.8', rules('203.0.113.7'))).toBe(false);
  });

  it('matches IPv4 CIDR ranges at their edges', () => {
    const r = rules('10.1.0.0/16');
    expect(ipMatchesAny('10.1.0.0', r)).toBe(true);
    expect(ipMatchesAny('10.1.255.255', r)).toBe(true);
    expect(ipMatchesAny('10.2.0.0', r)).toBe(false);
  });

  it('matches IPv6 addresses and ranges', () => {
    expect(ipMatchesAny('2001:db8::42', rules('2001:db8::/32'))).toBe(true);
    expect(ipMatchesAny('2001:db9::1', rules('2001:db8::/32'))).toBe(false);
    expect(ipMatchesAny('::1', rules('::1'))).toBe(true);
  });

  it('treats IPv4-mapped IPv6 clients and rules as IPv4', () => {
    expect(ipMatchesAny('::ffff:192.0.2.10', rules('192.0.2.0/24'))).toBe(true);
    expect(ipMatchesAny('192.0.2.10', rules('::ffff:192.0.2.0/120'))).toBe(true);
    expect(ipMatchesAny('::ffff:198.51.100.1', rules('192.0.2.0/24'))).toBe(false);
  });

  it('never matches across address families or garbage', () => {
    expect(ipMatchesAny('127.0.0.1', rules('::1'))).toBe(false);
    expect(ipMatchesAny('not-an-ip', rules('0.0.0.0/0'))).toBe(false);
  });

  it('refuses malformed rules and stores canonical network forms', () => {
    expect(parseRule('10.0.0.0/33')).toBeNull();
    expect(parseRule('300.1.1.1')).toBeNull();
    expect(parseRule('example.com')).toBeNull();
    expect(canonicalRule(parseRule('10.1.2.3/8') as IpRule)).toBe('10.0.0.0/8');
    expect(canonicalRule(parseRule('2001:db8::5') as IpRule)).toBe('2001:db8::5/128');
    expect(canonicalRule(parseRule('2001:db8::5/32') as IpRule)).toBe('2001:db8::/32');
  });
});
