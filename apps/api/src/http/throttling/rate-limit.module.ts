import { Module } from '@nestjs/common';
import { getOptionsToken, getStorageToken, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { ApiKeyRateLimitGuard } from './api-key-rate-limit.guard';
import { IpRateLimitGuard } from './ip-rate-limit.guard';
import { rateLimitThrottlers } from './rate-limit-buckets';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Provides the two rate-limit guards. They are not registered globally here: their place in the
 * global guard chain matters, so AppModule lists them as APP_GUARDs in order (`useExisting`).
 *
 * The throttler's options and storage tokens are provided directly (instead of importing the global
 * ThrottlerModule) so the storage is a class this module owns, with its own start-up and shutdown.
 */
@Module({
  providers: [
    RateLimitStorage,
    { provide: getStorageToken(), useExisting: RateLimitStorage },
    {
      provide: getOptionsToken(),
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ThrottlerModuleOptions => ({ throttlers: rateLimitThrottlers(config.rateLimits) }),
    },
    IpRateLimitGuard,
    ApiKeyRateLimitGuard,
  ],
  exports: [IpRateLimitGuard, ApiKeyRateLimitGuard],
})
export class RateLimitModule {}
