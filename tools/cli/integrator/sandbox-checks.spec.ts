import { forwardTarget } from './forward';
import { statusFilter } from './logs-tail';
import { loadSettings } from './settings';
import { NOT_TRIGGERABLE, trigger, TRIGGERS } from './triggers';
import { EVENT_NAMES } from '@gateway/contracts/events';
import { GatewayClient } from './gateway-client';

describe('sandbox CLI settings', () => {
  it('takes a test secret key and defaults the API to what npm start serves', () => {
    expect(loadSettings({ GATEWAY_SECRET_KEY: 'sk_test_abc' })).toEqual({ secretKey: 'sk_test_abc', apiUrl: 'http://127.0.0.1:3000' });
    expect(loadSettings({ GATEWAY_SECRET_KEY: 'sk_test_abc', GATEWAY_API_URL: 'http://127.0.0.1:4000/' }).apiUrl).toBe('http://127.0.0.1:4000');
  });

  it('refuses a live key, a publishable key, no key and a URL that is not http(s)', () => {
    expect(() => loadSettings({ GATEWAY_SECRET_KEY: 'sk_live_abc' })).toThrow(/live key.*test mode only/);
    expect(() => loadSettings({ GATEWAY_SECRET_KEY: 'pk_test_abc' })).toThrow(/must be a test secret key/);
    expect(() => loadSettings({})).toThrow(/Set GATEWAY_SECRET_KEY/);
    expect(() => loadSettings({ GATEWAY_SECRET_KEY: 'sk_test_abc', GATEWAY_API_URL: 'ftp://127.0.0.1' })).toThrow(/http/);
  });
});

describe('listen --forward-to', () => {
  it('accepts this machine only', () => {
    for (const url of ['http://localhost:4242/hooks', 'http://127.0.0.1:1/', 'http://127.8.9.10/x', 'https://[::1]:8443/h', 'http://[::ffff:127.0.0.1]/']) {
      expect(forwardTarget(url).href).toBe(new URL(url).href);
    }
    for (const url of ['http://example.com/hooks', 'http://10.0.0.1/', 'http://192.168.1.5/', 'http://[::2]/', 'http://localhost.example.com/', 'http://0.0.0.0/']) {
      expect(() => forwardTarget(url)).toThrow(/this machine/);
    }
    expect(() => forwardTarget('file:///etc/passwd')).toThrow(/http/);
    expect(() => forwardTarget('localhost:4242')).toThrow();
  });
});

describe('logs tail --status', () => {
  it('takes a class or one code', () => {
    expect(statusFilter('4XX')).toEqual({ status_class: '4xx' });
    expect(statusFilter('404')).toEqual({ status: '404' });
    expect(statusFilter(undefined)).toEqual({});
    expect(() => statusFilter('4x')).toThrow(/--status/);
  });
});

describe('trigger', () => {
  it('names, for every event of the catalog, how to trigger it or why it cannot be', () => {
    for (const name of EVENT_NAMES) expect([name, Object.hasOwn(TRIGGERS, name) || Object.hasOwn(NOT_TRIGGERABLE, name)]).toEqual([name, true]);
  });

  it('refuses an event it cannot cause, saying why, before calling the gateway', async () => {
    const unreachable = new GatewayClient('http://127.0.0.1:9', 'sk_test_x');
    await expect(trigger(unreachable, 'transfer.success', () => undefined)).rejects.toThrow(/live-mode only/);
    await expect(trigger(unreachable, 'payment.teleported', () => undefined)).rejects.toThrow(/not an event the sandbox can trigger. Supported: payment.success/);
  });
});
