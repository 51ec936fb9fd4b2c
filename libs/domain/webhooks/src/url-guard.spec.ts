import { addressScope } from './special-purpose-addresses';
import { addressAllowed, literalAddressProblem, urlAddressProblem, urlFormProblem, type UrlPolicy } from './url-guard';

const live: UrlPolicy = { mode: 'live', trustedHosts: [], allowPrivateInTestMode: false };
/** Test mode as in production (WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE off). */
const testStrict: UrlPolicy = { mode: 'test', trustedHosts: [], allowPrivateInTestMode: false };
/** Test mode as in development (the setting on). */
const testLocal: UrlPolicy = { mode: 'test', trustedHosts: [], allowPrivateInTestMode: true };

/** Resolves nothing: every URL below is an IP literal or must be judged without DNS. */
const noDns = jest.fn(async () => Promise.reject(new Error('no DNS in this test')));

describe('webhook URL guard (SSRF)', () => {
  afterEach(() => expect(noDns).not.toHaveBeenCalled());

  // Issue 10, item 5: IPv6 forms ipaddr.js calls unicast, and the special-purpose ranges around them.
  it.each([
    ['https://[::127.0.0.1]/', 'IPv4-compatible loopback (::/96)'],
    ['https://[::a9fe:a9fe]/', 'IPv4-compatible 169.254.169.254'],
    ['https://[::10.0.0.1]/', 'IPv4-compatible 10.0.0.1'],
    ['https://[::8.8.8.8]/', 'IPv4-compatible, even of a public address (deprecated form)'],
    ['https://[fec0::1]/', 'site-local (fec0::/10)'],
    ['https://[64:ff9b:1::a00:1]/', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['https://[64:ff9b::a00:1]/', 'well-known NAT64 embedding 10.0.0.1'],
    ['https://[64:ff9b::7f00:1]/', 'well-known NAT64 embedding 127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['https://[::ffff:a9fe:a9fe]/', 'IPv4-mapped 169.254.169.254'],
    ['https://[2001:db8::1]/', 'documentation (2001:db8::/32)'],
    ['https://[3fff::1]/', 'documentation (3fff::/20)'],
    ['https://[2002:7f00:1::1]/', '6to4 (2002::/16)'],
    ['https://[2002:808:808::1]/', '6to4 of a public address (refused, not judged)'],
    ['https://[2001::1]/', 'Teredo (2001::/32)'],
    ['https://[2001:2::1]/', 'benchmarking (2001:2::/48)'],
    ['https://[100::1]/', 'discard-only (100::/64)'],
    ['https://[fc00::1]/', 'unique-local (fc00::/7)'],
    ['https://[fd12:3456::1]/', 'unique-local (fd00::/8)'],
    ['https://[fe80::1]/', 'link-local (fe80::/10)'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://[::]/', 'unspecified'],
    ['https://[::1]/', 'loopback'],
    ['https://[5f00::1]/', 'segment routing SIDs (5f00::/16)'],
    ['https://0.0.0.0/', '0.0.0.0/8'],
    ['https://0.1.2.3/', '0.0.0.0/8'],
    ['https://10.0.0.1/', 'private 10/8'],
    ['https://172.16.0.1/', 'private 172.16/12'],
    ['https://192.168.1.5/', 'private 192.168/16'],
    ['https://100.64.0.1/', 'shared address space 100.64.0.0/10'],
    ['https://127.0.0.1/', 'loopback'],
    ['https://2130706433/', 'loopback written as one number (the URL parser normalises it)'],
    ['https://169.254.169.254/', 'link-local (cloud metadata)'],
    ['https://192.0.0.8/', 'IETF protocol assignments 192.0.0.0/24'],
    ['https://192.0.2.1/', 'TEST-NET-1'],
    ['https://198.18.0.1/', 'benchmarking 198.18.0.0/15'],
    ['https://198.19.255.254/', 'benchmarking 198.18.0.0/15 (upper half)'],
    ['https://198.51.100.1/', 'TEST-NET-2'],
    ['https://203.0.113.1/', 'TEST-NET-3'],
    ['https://192.88.99.1/', '6to4 relay anycast'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://240.0.0.1/', 'reserved 240.0.0.0/4'],
    ['https://255.255.255.255/', 'limited broadcast'],
  ])('refuses %s in live mode without DNS (%s)', async (url) => {
    expect(urlFormProblem(url, live)).toBeNull();
    expect(await urlAddressProblem(url, live, noDns)).toMatch(/must not point to a private/);
    expect(literalAddressProblem(url, live)).toMatch(/must not point to a private/);
  });

  it.each(['https://8.8.8.8/', 'https://93.184.215.14/', 'https://[2606:4700::1111]/', 'https://[2a00:1450:4001::200e]/', 'https://[64:ff9b::808:808]/', 'https://[::ffff:8.8.8.8]/'])(
    'accepts the global unicast address %s in live mode',
    async (url) => {
      expect(await urlAddressProblem(url, live, noDns)).toBeNull();
      expect(literalAddressProblem(url, live)).toBeNull();
    },
  );

  it('scopes addresses: public, local (loopback and private networks), forbidden (the rest)', () => {
    expect(['127.0.0.1', '127.255.0.1', '::1', '10.1.2.3', '172.31.255.255', '192.168.0.1', 'fd00::1', '::ffff:10.0.0.1'].map(addressScope)).toEqual(Array(8).fill('local'));
    expect(['169.254.169.254', 'fe80::1', '::7f00:1', '64:ff9b::a00:1', '100.64.0.1', 'not-an-ip', ''].map(addressScope)).toEqual(Array(7).fill('forbidden'));
    expect(['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111'].map(addressScope)).toEqual(Array(4).fill('public'));
  });

  it('requires https in live mode, refuses credentials; test mode accepts http', () => {
    expect(urlFormProblem('http://example.com/h', live)).toMatch(/https/);
    expect(urlFormProblem('ftp://example.com/h', testLocal)).toMatch(/https/);
    expect(urlFormProblem('http://example.com/h', testStrict)).toBeNull();
    expect(urlFormProblem('https://user:pw@example.com/h', live)).toMatch(/credentials/);
  });

  it('test mode reaches loopback and private networks only where the operator allows it; metadata and reserved ranges never', async () => {
    for (const url of ['http://127.0.0.1:3000/h', 'http://[::1]:3000/h', 'http://10.1.2.3/h', 'http://192.168.1.5/h', 'http://[fd00::1]/h']) {
      expect([url, await urlAddressProblem(url, testLocal, noDns)]).toEqual([url, null]);
      expect([url, await urlAddressProblem(url, testStrict, noDns)]).toEqual([url, expect.stringMatching(/must not point to a private/)]);
      expect([url, literalAddressProblem(url, testStrict)]).toEqual([url, expect.stringMatching(/must not point to a private/)]);
    }
    for (const url of ['http://169.254.169.254/h', 'http://[fe80::1]/h', 'http://100.64.0.1/h', 'http://[::127.0.0.1]/h', 'http://0.0.0.0/h']) {
      expect([url, await urlAddressProblem(url, testLocal, noDns)]).toEqual([url, expect.stringMatching(/must not point to a private/)]);
    }
    expect(addressAllowed('127.0.0.1', live)).toBe(false);
    expect(addressAllowed('127.0.0.1', { mode: 'live', allowPrivateInTestMode: true })).toBe(false);
  });

  it('judges every address a host name resolves to', async () => {
    const resolve = jest.fn(async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::a9fe:a9fe', family: 6 },
    ]);
    expect(await urlAddressProblem('https://mixed.gateway.test/h', live, resolve)).toMatch(/must not point to a private/);
    const localhost = jest.fn(async () => [{ address: '127.0.0.1', family: 4 }]);
    expect(await urlAddressProblem('http://localhost:3000/h', testStrict, localhost)).toMatch(/must not point to a private/);
    expect(await urlAddressProblem('http://localhost:3000/h', testLocal, localhost)).toBeNull();
  });

  it('lets operators trust named on-premises hosts, whatever the test-mode setting', async () => {
    const loopback = jest.fn(async () => [{ address: '127.0.0.1', family: 4 }]);
    expect(await urlAddressProblem('https://localhost/h', { ...live, trustedHosts: ['localhost'] }, loopback)).toBeNull();
    expect(await urlAddressProblem('http://hooks.internal/h', { ...testStrict, trustedHosts: ['hooks.internal'] }, loopback)).toBeNull();
    expect(loopback).not.toHaveBeenCalled();
  });
});
