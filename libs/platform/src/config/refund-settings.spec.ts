import { ConfigError, loadConfig } from './app-config';

describe('REFUND_RESUBMIT_INTERVAL_SECONDS and REFUND_RESUBMIT_AFTER_SECONDS', () => {
  it('default to a scan every minute of refunds untouched for two minutes', () => {
    expect(loadConfig({}).refunds).toEqual({ resubmitIntervalMs: 60_000, resubmitAfterMs: 120_000 });
    expect(loadConfig({ REFUND_RESUBMIT_INTERVAL_SECONDS: '1', REFUND_RESUBMIT_AFTER_SECONDS: '3', PROVIDER_TIMEOUT_MS: '2000' }).refunds).toEqual({ resubmitIntervalMs: 1_000, resubmitAfterMs: 3_000 });
  });

  it('refuse a wait no longer than the provider timeout: a refund still waiting for its answer would be sent twice', () => {
    expect(() => loadConfig({ REFUND_RESUBMIT_AFTER_SECONDS: '20' })).toThrow(ConfigError); // PROVIDER_TIMEOUT_MS defaults to 20,000
    expect(() => loadConfig({ REFUND_RESUBMIT_AFTER_SECONDS: '20' })).toThrow(/REFUND_RESUBMIT_AFTER_SECONDS is invalid \(must be longer than PROVIDER_TIMEOUT_MS, 20000 ms\)/);
    expect(loadConfig({ REFUND_RESUBMIT_AFTER_SECONDS: '21' }).refunds.resubmitAfterMs).toBe(21_000);
  });

  it('refuse zero, fractions and words', () => {
    for (const value of ['0', '1.5', 'soon']) expect(() => loadConfig({ REFUND_RESUBMIT_INTERVAL_SECONDS: value })).toThrow(/REFUND_RESUBMIT_INTERVAL_SECONDS/);
  });
});
