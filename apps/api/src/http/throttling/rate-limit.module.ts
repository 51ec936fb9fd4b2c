import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { ApiKeyRateLimitGuard } from './api-key-rate-limit.guard';
import { IpRateLimitGuard } from './ip-rate-limit.guard';
import { PortalAuthRateLimitGuard } from './portal-auth-rate-limit.guard';
import { rateLimitThrottlers } from './rate-limit-buckets';
import { RATE_LIMIT_BUCKETS } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Provides the three rate-limit guards. They are not registered globally here: their place in the
 * global guard chain matters, so AppModule lists them as APP_GUARDs in order (`useExisting`).
 */
@Module({
  providers: [
    RateLimitStorage,
    { provide: RATE_LIMIT_BUCKETS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => rateLimitThrottlers(config.rateLimits) },
    IpRateLimitGuard,
    ApiKeyRateLimitGuard,
    PortalAuthRateLimitGuard,
  ],
  exports: [IpRateLimitGuard, ApiKeyRateLimitGuard, PortalAuthRateLimitGuard],
})
export class RateLimitModule {}
