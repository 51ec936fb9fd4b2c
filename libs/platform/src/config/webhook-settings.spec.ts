import { ConfigError, loadConfig } from './app-config';

/** The minimum a production configuration needs to load (see loadConfig's production checks). */
const production = {
  NODE_ENV: 'production',
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  PROVIDER_TEST_SECRET_KEY: 'sk_test_real',
  PROVIDER_LIVE_SECRET_KEY: 'sk_live_real',
};

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE', () => {
  it('is on by default in development and test, off in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).webhooks.allowPrivateTargetsInTestMode).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowPrivateTargetsInTestMode).toBe(true);
    expect(loadConfig({}).webhooks.allowPrivateTargetsInTestMode).toBe(true); // NODE_ENV defaults to development
    expect(loadConfig(production).webhooks.allowPrivateTargetsInTestMode).toBe(false);
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: '' }).webhooks.allowPrivateTargetsInTestMode).toBe(false);
  });

  it('can be set either way in any environment', () => {
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: 'true' }).webhooks.allowPrivateTargetsInTestMode).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: 'false' }).webhooks.allowPrivateTargetsInTestMode).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: '0' }).webhooks.allowPrivateTargetsInTestMode).toBe(false);
  });

  it('refuses a value that is not a boolean, naming the setting', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: 'maybe' })).toThrow(/^Configuration error: WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE is invalid/);
  });
});

describe('endpoint disabling and replay settings', () => {
  it('defaults to 20 failed deliveries over 3 days, a scan every 5 minutes and a 30-day replay window', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ disableAfterFailures: 20, disableAfterMs: 3 * 86_400_000, disableScanIntervalMs: 300_000, replayWindowDays: 30 });
  });

  it('takes decimal days (tests compress the period) and 0 failures to turn disabling off', () => {
    expect(loadConfig({ WEBHOOK_DISABLE_AFTER_DAYS: '0.5' }).webhooks.disableAfterMs).toBe(43_200_000);
    expect(loadConfig({ WEBHOOK_DISABLE_AFTER_DAYS: '0' }).webhooks.disableAfterMs).toBe(0);
    expect(loadConfig({ WEBHOOK_DISABLE_AFTER_FAILURES: '0' }).webhooks.disableAfterFailures).toBe(0);
  });

  it.each([
    ['WEBHOOK_DISABLE_AFTER_FAILURES', '-1'],
    ['WEBHOOK_DISABLE_AFTER_FAILURES', '2.5'],
    ['WEBHOOK_DISABLE_AFTER_DAYS', '-0.1'],
    ['WEBHOOK_DISABLE_AFTER_DAYS', 'three'],
    ['WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS', '0'],
    ['WEBHOOK_REPLAY_WINDOW_DAYS', '0'],
    ['WEBHOOK_REPLAY_WINDOW_DAYS', '366'],
  ])('refuses %s=%s, naming the setting', (setting, value) => {
    expect(() => loadConfig({ [setting]: value })).toThrow(new RegExp(`^Configuration error: ${setting} is invalid`));
  });
});
