import { type DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { PaymentProvider } from './payment-provider';
import { PaystackHttpProvider } from './paystack/paystack-http.provider';

/** The provider adapter built from the mode accounts (with their profile and currencies) and timeout in AppConfig. */
export function paymentProviderFromConfig(config: AppConfig): PaymentProvider {
  return new PaystackHttpProvider({
    accounts: { test: config.provider.test, live: config.provider.live },
    timeoutMs: config.provider.timeoutMs,
    breaker: { resetTimeoutMs: config.provider.breakerResetMs },
    maxSocketsPerOrigin: config.provider.maxSockets,
  });
}

/**
 * Provides `PaymentProvider` (the Paystack-format HTTP adapter) from the global APP_CONFIG.
 * Import `ProviderModule` where needed, or `ProviderModule.forRoot()` once in an app to make it global.
 * Tests replace it with `.overrideProvider(PaymentProvider)`.
 */
@Module({
  providers: [{ provide: PaymentProvider, useFactory: paymentProviderFromConfig, inject: [APP_CONFIG] }],
  exports: [PaymentProvider],
})
export class ProviderModule {
  static forRoot(): DynamicModule {
    return { module: ProviderModule, global: true };
  }
}
