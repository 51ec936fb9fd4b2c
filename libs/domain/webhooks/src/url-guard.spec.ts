import { addressAllowed, urlAddressProblem, urlFormProblem } from './url-guard';

const live = { mode: 'live' as const, trustedHosts: [] };
const test = { mode: 'test' as const, trustedHosts: [] };

describe('webhook URL guard (SSRF)', () => {
  it.each(['https://localhost/h', 'https://10.0.0.1/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://0.0.0.0/h', 'https://192.168.1.5/h', 'https://[::ffff:127.0.0.1]/h', 'https://100.64.0.1/h'])(
    'refuses %s in live mode without connecting',
    async (url) => {
      expect(urlFormProblem(url, live)).toBeNull();
      expect(await urlAddressProblem(url, live)).toMatch(/private|does not resolve/);
    },
  );

  it('requires https in live mode; test mode accepts http and loopback, but not metadata or private ranges', async () => {
    expect(urlFormProblem('http://example.com/h', live)).toMatch(/https/);
    expect(urlFormProblem('ftp://example.com/h', test)).toMatch(/https/);
    expect(urlFormProblem('https://user:pw@example.com/h', live)).toMatch(/credentials/);
    expect(await urlAddressProblem('http://127.0.0.1:3000/h', test)).toBeNull();
    expect(await urlAddressProblem('http://169.254.169.254/h', test)).not.toBeNull();
    expect(await urlAddressProblem('http://10.1.2.3/h', test)).not.toBeNull();
  });

  it('lets operators trust named on-premises hosts', async () => {
    expect(await urlAddressProblem('https://localhost/h', { mode: 'live', trustedHosts: ['localhost'] })).toBeNull();
  });

  it('classifies addresses', () => {
    expect(addressAllowed('8.8.8.8', 'live')).toBe(true);
    expect(addressAllowed('2606:4700::1111', 'live')).toBe(true);
    expect(addressAllowed('127.0.0.1', 'live')).toBe(false);
    expect(addressAllowed('127.0.0.1', 'test')).toBe(true);
    expect(addressAllowed('fe80::1', 'test')).toBe(false);
    expect(addressAllowed('not-an-ip', 'test')).toBe(false);
  });
});
