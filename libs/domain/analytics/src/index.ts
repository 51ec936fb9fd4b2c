export { AnalyticsModule } from './analytics.module';
/** The SQL of payment outcomes recorded inside a caller's one statement (see AnalyticsService.paymentOutcomesInStatement). */
export { totalsCte as analyticsTotalsCte } from './analytics.repository';
export { AnalyticsService, type AnalyticsQuery, type AnalyticsScope, type PaymentOutcome, type PaymentOutcomeChange, type ProcessedRefund } from './analytics.service';
export { rateOf, type AnalyticsFigures, type AnalyticsSummary, type AnalyticsTimeseries } from './analytics-figures';
export { ANALYTICS_INTERVALS, DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, type AnalyticsInterval, type AnalyticsRange } from './analytics-period';
export { toAnalyticsSummaryResponse, toAnalyticsTimeseriesResponse, toAnalyticsTopCustomersResponse, toFiguresResponse, type RankedCustomer } from './analytics.mapper';
