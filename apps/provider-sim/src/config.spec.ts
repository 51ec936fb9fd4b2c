import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 4010,
      host: '127.0.0.1',
      secretKeys: ['sk_sim_test_secret', 'sk_sim_live_secret'],
      webhookUrl: undefined,
      publicUrl: undefined,
      transferDelayMs: undefined,
    });
  });

  it('reads every setting', () => {
    expect(
      loadConfig({
        PORT: '5000',
        HOST: '0.0.0.0',
        SIM_SECRET_KEYS: ' sk_a , sk_b ',
        SIM_WEBHOOK_URL: 'http://127.0.0.1:3000/webhooks/provider',
        SIM_PUBLIC_URL: 'https://sim.example.test',
        SIM_TRANSFER_DELAY_MS: '0',
      }),
    ).toEqual({
      port: 5000,
      host: '0.0.0.0',
      secretKeys: ['sk_a', 'sk_b'],
      webhookUrl: 'http://127.0.0.1:3000/webhooks/provider',
      publicUrl: 'https://sim.example.test',
      transferDelayMs: 0,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer between 0 and 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be an integer between 0 and 65535, got "70000"'],
    [{ SIM_WEBHOOK_URL: 'ftp://x' }, 'SIM_WEBHOOK_URL must be an absolute http(s) URL, got "ftp://x"'],
    [{ SIM_PUBLIC_URL: 'not a url' }, 'SIM_PUBLIC_URL must be an absolute http(s) URL, got "not a url"'],
    [{ SIM_TRANSFER_DELAY_MS: '-5' }, 'SIM_TRANSFER_DELAY_MS must be an integer between 0 and 600000, got "-5"'],
    [{ SIM_SECRET_KEYS: 'sk_a,,sk_b' }, 'SIM_SECRET_KEYS must be a comma-separated list of non-empty keys without spaces'],
    [{ SIM_SECRET_KEYS: 'sk_a,sk_a' }, 'SIM_SECRET_KEYS contains a duplicate key'],
  ])('names the bad setting in one line: %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});
