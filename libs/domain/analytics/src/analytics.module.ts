import { Module } from '@nestjs/common';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';

/**
 * Analytics (table `analytics_daily_totals`): daily totals of payment outcomes and processed
 * refunds, written by payments and refunds through AnalyticsService in their own transactions,
 * and the summaries and time series read from them.
 */
@Module({
  providers: [AnalyticsRepository, AnalyticsService],
  exports: [AnalyticsService],
})
export class AnalyticsModule {}
