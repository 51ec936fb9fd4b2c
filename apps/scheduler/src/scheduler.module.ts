import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig, Clock, ConfigModule, configuredPool, dataSourceOptions, SystemClock } from '@gateway/platform';
import { AbandonedPaymentsModule } from './jobs/abandoned-payments/abandoned-payments.module';
import { IdempotencyPurgeModule } from './jobs/idempotency-purge/idempotency-purge.module';
import { PaymentIntentExpiryModule } from './jobs/payment-intent-expiry/payment-intent-expiry.module';
import { PaymentReconciliationModule } from './jobs/payment-reconciliation/payment-reconciliation.module';
import { PortalHousekeepingModule } from './jobs/portal-housekeeping/portal-housekeeping.module';
import { RefundResubmissionModule } from './jobs/refund-resubmission/refund-resubmission.module';
import { TransferReconciliationModule } from './jobs/transfer-reconciliation/transfer-reconciliation.module';
import { DisputeExpiryModule } from './jobs/dispute-expiry/dispute-expiry.module';
import { InvoiceOverdueModule } from './jobs/invoice-overdue/invoice-overdue.module';
import { SettlementsJobsModule } from './jobs/settlements/settlements-jobs.module';
import { ScheduledChargesModule } from './jobs/scheduled-charges/scheduled-charges.module';
import { SubscriptionBillingModule } from './jobs/subscription-billing/subscription-billing.module';
import { RequestLogPartitionsModule } from './jobs/request-log-partitions/request-log-partitions.module';
import { JobQueueModule } from './jobs/job-queue/job-queue.module';
import { TestClockRulesModule } from './jobs/test-clocks/test-clock-rules.module';
import { ExportsJobsModule } from './jobs/exports/exports-jobs.module';
import { WebhookEndpointsJobsModule } from './jobs/webhook-endpoints/webhook-endpoints-jobs.module';

/** Operators' liveness probe; the scheduler serves no user routes. */
@Controller()
class SchedulerHealthController {
  @Get('health')
  health(): { success: true; data: { status: 'ok' } } {
    return { success: true, data: { status: 'ok' } };
  }
}

/**
 * Background work: cron scans (@nestjs/schedule) and queue workers. Each job is a thin shell that
 * calls a domain service; none depends on running in only one instance.
 */
@Module({})
export class SchedulerModule {
  static forRoot(config: AppConfig, databaseUrl: string, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: SchedulerModule,
      // Global so every domain module receives the one Clock.
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, configuredPool(config.database, 5)), autoLoadEntities: true }),
        ScheduleModule.forRoot(),
        IdempotencyPurgeModule,
        RequestLogPartitionsModule,
        PortalHousekeepingModule,
        AbandonedPaymentsModule,
        PaymentReconciliationModule,
        ScheduledChargesModule,
        SubscriptionBillingModule,
        PaymentIntentExpiryModule,
        RefundResubmissionModule,
        TransferReconciliationModule,
        DisputeExpiryModule,
        InvoiceOverdueModule,
        SettlementsJobsModule,
        TestClockRulesModule,
        ExportsJobsModule,
        WebhookEndpointsJobsModule,
        JobQueueModule.forRoot(databaseUrl),
      ],
      controllers: [SchedulerHealthController],
      providers: [{ provide: Clock, useValue: clock }],
      exports: [Clock],
    };
  }
}
