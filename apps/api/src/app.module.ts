import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig, Clock, ConfigModule, configuredPool, dataSourceOptions, SystemClock } from '@gateway/platform';
import { ApiKeysModule } from '@gateway/domain/api-keys';
import { DevelopersModule } from '@gateway/domain/developers';
import { RequestLogsModule } from '@gateway/domain/request-logs';
import { ApiKeyGuard } from './http/auth/api-key.guard';
import { IpAllowlistGuard } from './http/auth/ip-allowlist.guard';
import { ScopeGuard } from './http/auth/scope.guard';
import { BodyArrayLimitsGuard } from './http/body-arrays/body-array-limits.guard';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { IdempotencyHttpModule } from './http/idempotency/idempotency-http.module';
import { ApiKeyRateLimitGuard } from './http/throttling/api-key-rate-limit.guard';
import { IpRateLimitGuard } from './http/throttling/ip-rate-limit.guard';
import { PortalAuthRateLimitGuard } from './http/throttling/portal-auth-rate-limit.guard';
import { RateLimitModule } from './http/throttling/rate-limit.module';
import { createValidationPipe } from './http/validation.pipe';
import { CustomersApiModule } from './modules/customers/customers-api.module';
import { WebhooksApiModule } from './modules/webhooks/webhooks-api.module';
import { BulkPaymentsApiModule } from './modules/bulk-payments/bulk-payments-api.module';
import { PaymentsApiModule } from './modules/payments/payments-api.module';
import { ProviderWebhooksApiModule } from './modules/provider-webhooks/provider-webhooks-api.module';
import { RefundsApiModule } from './modules/refunds/refunds-api.module';
import { DisputesApiModule } from './modules/disputes/disputes-api.module';
import { TestClocksApiModule } from './modules/test-clocks/test-clocks-api.module';
import { PaymentIntentsApiModule } from './modules/payment-intents/payment-intents-api.module';
import { WalletApiModule } from './modules/wallet/wallet-api.module';
import { SubaccountsApiModule } from './modules/subaccounts/subaccounts-api.module';
import { TransfersApiModule } from './modules/transfers/transfers-api.module';
import { SettlementsApiModule } from './modules/settlements/settlements-api.module';
import { VirtualAccountsApiModule } from './modules/virtual-accounts/virtual-accounts-api.module';
import { InvoicesApiModule } from './modules/invoices/invoices-api.module';
import { ExportsApiModule } from './modules/exports/exports-api.module';
import { SubscriptionsApiModule } from './modules/subscriptions/subscriptions-api.module';
import { AnalyticsApiModule } from './modules/analytics/analytics-api.module';
import { RequestsApiModule } from './modules/requests/requests-api.module';
import { EventsApiModule } from './modules/events/events-api.module';
import { RequestLogsApiModule } from './modules/request-logs/request-logs-api.module';
import { HealthModule } from './modules/health/health.module';
import { PortalModule } from './modules/portal/portal.module';

export interface ApiModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, clock }: ApiModuleOptions): DynamicModule {
    return {
      module: AppModule,
      // Global so every domain module receives the one Clock.
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        // Only the API bounds each statement: a request's statements are short (PoolSettings.statementTimeoutMs).
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl, { ...configuredPool(config.database), statementTimeoutMs: config.database.statementTimeoutMs }),
          autoLoadEntities: true,
        }),
        DevelopersModule,
        ApiKeysModule,
        HealthModule,
        CustomersApiModule,
        WebhooksApiModule,
        // Bulk before payments: its routes came first when they were one module, and the OpenAPI
        // document (paths in registration order) keeps its order.
        BulkPaymentsApiModule,
        PaymentsApiModule,
        ProviderWebhooksApiModule,
        RefundsApiModule,
        DisputesApiModule,
        TestClocksApiModule,
        PaymentIntentsApiModule,
        WalletApiModule,
        SubaccountsApiModule,
        TransfersApiModule,
        SettlementsApiModule,
        VirtualAccountsApiModule,
        InvoicesApiModule,
        ExportsApiModule,
        SubscriptionsApiModule,
        AnalyticsApiModule,
        EventsApiModule,
        RequestLogsApiModule,
        RequestsApiModule,
        IdempotencyHttpModule,
        RateLimitModule,
        RequestLogsModule.register(config.requestLog),
        PortalModule,
      ],
      exports: [Clock],
      providers: [
        { provide: Clock, useValue: clock ?? new SystemClock() },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        // The guard chain, in this order (Nest runs global guards in registration order):
        // 1. per-IP rate limit: before the key is checked, so key guessing is counted and refused;
        //    then the per-IP, per-minute limit of the portal's credential routes (only those), before
        //    their session lookup, CSRF check or password hash;
        // 2. who (key) → 3. from where (IP allowlist);
        // 4. per-key rate limit: needs the key, and after the allowlist so requests from refused
        //    addresses (a leaked key used elsewhere) cannot use up the merchant's own limit;
        // 5. may it (scope);
        // 6. body arrays within their item limits: before the idempotency guard fingerprints
        //    the body and validation visits every item (http/body-arrays).
        { provide: APP_GUARD, useExisting: IpRateLimitGuard },
        { provide: APP_GUARD, useExisting: PortalAuthRateLimitGuard },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: IpAllowlistGuard },
        { provide: APP_GUARD, useExisting: ApiKeyRateLimitGuard },
        { provide: APP_GUARD, useClass: ScopeGuard },
        { provide: APP_GUARD, useClass: BodyArrayLimitsGuard },
        // After the global guards, mutating routes declare @Idempotent() (the idempotency guard);
        // success bodies are enveloped by a Fastify hook (http/envelope.hook.ts).
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
