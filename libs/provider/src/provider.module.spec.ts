import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createProviderSimulator } from '@gateway/provider-sim';
import { ConfigError, ConfigModule, loadConfig } from '@gateway/platform';
import { PaymentProvider } from './payment-provider';
import { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { ProviderModule } from './provider.module';
import { ngn, silenceProviderLogs, uniqueReference } from './testing/adapter-harness';

describe('provider configuration', () => {
  it('defaults to the simulator on 127.0.0.1:4010 with its development secrets, every gateway currency and a 20 s timeout', () => {
    const everyCurrency = ['NGN', 'USD', 'GBP', 'KES'];
    expect(loadConfig({}).provider).toEqual({
      test: { baseUrl: 'http://127.0.0.1:4010', secretKey: 'sk_sim_test_secret', profile: 'simulator', currencies: everyCurrency },
      live: { baseUrl: 'http://127.0.0.1:4010', secretKey: 'sk_sim_live_secret', profile: 'simulator', currencies: everyCurrency },
      timeoutMs: 20_000,
      breakerResetMs: 10_000,
      maxSockets: 50,
    });
  });

  it('pointing live mode at the real provider is configuration only, and brings Paystack\'s limits with it (NGN unless told)', () => {
    const config = loadConfig({ PROVIDER_LIVE_BASE_URL: 'https://api.paystack.co/', PROVIDER_LIVE_SECRET_KEY: 'sk_live_abc', PROVIDER_TIMEOUT_MS: '15000' });
    expect(config.provider.live).toEqual({ baseUrl: 'https://api.paystack.co', secretKey: 'sk_live_abc', profile: 'paystack', currencies: ['NGN'] });
    expect(config.provider.timeoutMs).toBe(15_000);
    const enabled = loadConfig({ PROVIDER_LIVE_BASE_URL: 'https://api.paystack.co', PROVIDER_LIVE_SECRET_KEY: 'sk_live_abc', PROVIDER_LIVE_CURRENCIES: 'ngn, USD,ZAR' });
    expect(enabled.provider.live.currencies).toEqual(['NGN', 'USD', 'ZAR']);
  });

  it('the profile can be chosen (a proxy in front of Paystack; the simulator playing Paystack), and currencies are checked against it', () => {
    expect(loadConfig({ PROVIDER_LIVE_BASE_URL: 'https://paystack-proxy.internal', PROVIDER_LIVE_SECRET_KEY: 'sk_live_abc', PROVIDER_LIVE_PROFILE: 'paystack' }).provider.live).toMatchObject({
      profile: 'paystack',
      currencies: ['NGN'],
    });
    expect(loadConfig({ PROVIDER_TEST_PROFILE: 'paystack', PROVIDER_TEST_CURRENCIES: 'NGN,GHS' }).provider.test).toMatchObject({ profile: 'paystack', currencies: ['NGN', 'GHS'] });
    expect(() => loadConfig({ PROVIDER_TEST_PROFILE: 'paystack', PROVIDER_TEST_CURRENCIES: 'NGN,GBP' })).toThrow(
      'PROVIDER_TEST_CURRENCIES is invalid (GBP not served by the paystack profile, which serves NGN, GHS, ZAR, KES, USD)',
    );
    expect(() => loadConfig({ PROVIDER_LIVE_CURRENCIES: 'ZAR' })).toThrow('PROVIDER_LIVE_CURRENCIES is invalid (ZAR not served by the simulator profile');
    expect(() => loadConfig({ PROVIDER_LIVE_PROFILE: 'stripe' })).toThrow('PROVIDER_LIVE_PROFILE is invalid');
    expect(() => loadConfig({ PROVIDER_LIVE_CURRENCIES: 'naira' })).toThrow('PROVIDER_LIVE_CURRENCIES is invalid');
  });

  it('production refuses missing secrets and the simulator development secrets', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}` };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow('PROVIDER_TEST_SECRET_KEY is missing or the simulator');
    expect(() => loadConfig({ ...production, PROVIDER_TEST_SECRET_KEY: 'sk_test_real' })).toThrow('PROVIDER_LIVE_SECRET_KEY');
    expect(() => loadConfig({ ...production, PROVIDER_TEST_SECRET_KEY: 'sk_test_real', PROVIDER_LIVE_SECRET_KEY: 'sk_sim_test_secret' })).toThrow(
      'PROVIDER_LIVE_SECRET_KEY',
    );
    const ok = loadConfig({ ...production, PROVIDER_TEST_SECRET_KEY: 'sk_test_real', PROVIDER_LIVE_SECRET_KEY: 'sk_live_real' });
    expect(ok.provider.live.secretKey).toBe('sk_live_real');
  });

  it('refuses the same secret for both modes (webhooks tell the mode by the secret), bad URLs and timeouts', () => {
    expect(() => loadConfig({ PROVIDER_TEST_SECRET_KEY: 'sk_same', PROVIDER_LIVE_SECRET_KEY: 'sk_same' })).toThrow('must differ');
    expect(() => loadConfig({ PROVIDER_LIVE_BASE_URL: 'ftp://example.com' })).toThrow('PROVIDER_LIVE_BASE_URL is invalid');
    expect(() => loadConfig({ PROVIDER_TIMEOUT_MS: '0' })).toThrow('PROVIDER_TIMEOUT_MS is invalid');
    expect(() => loadConfig({ PROVIDER_TEST_SECRET_KEY: '' })).toThrow('PROVIDER_TEST_SECRET_KEY is invalid');
    // A retry must not take over the idempotency key of a request still waiting on the provider.
    expect(() => loadConfig({ PROVIDER_TIMEOUT_MS: '60000', IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: '60' })).toThrow(
      'IDEMPOTENCY_LOCK_TIMEOUT_SECONDS is invalid (must be longer than PROVIDER_TIMEOUT_MS, 60000 ms)',
    );
  });
});

describe('ProviderModule', () => {
  it('provides PaymentProvider as the HTTP adapter built from AppConfig, per mode', async () => {
    silenceProviderLogs();
    const sim = createProviderSimulator({ secretKeys: ['sk_test_module', 'sk_live_module'], transferDelayMs: 0 });
    const url = await sim.listen();
    try {
      const config = loadConfig({
        PROVIDER_TEST_BASE_URL: url,
        PROVIDER_TEST_SECRET_KEY: 'sk_test_module',
        PROVIDER_LIVE_BASE_URL: url,
        PROVIDER_LIVE_SECRET_KEY: 'sk_live_module',
      });
      @Module({ imports: [ConfigModule.forRoot(config), ProviderModule.forRoot()] })
      class AppModule {}
      const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
      const provider = app.get(PaymentProvider);
      expect(provider).toBeInstanceOf(PaystackHttpProvider);
      const reference = uniqueReference('mod');
      await provider.initializeTransaction('live', { reference, email: 'ada@example.com', amount: ngn('10.00'), currency: 'NGN' });
      expect(await provider.verifyTransaction('live', reference)).not.toBeNull();
      expect(await provider.verifyTransaction('test', reference)).toBeNull();
      expect(provider.capabilities('live').describe()).toMatchObject({ holds: ['NGN', 'USD', 'GBP', 'KES'], transfers: ['NGN', 'KES'] });
      await app.close();
    } finally {
      await sim.close();
    }
  });
});
