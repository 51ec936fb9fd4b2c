import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AnalyticsSummaryQuery,
  AnalyticsSummaryResponse,
  AnalyticsTimeseriesQuery,
  AnalyticsTimeseriesResponse,
  AnalyticsTopCustomersQuery,
  AnalyticsTopCustomersResponse,
} from '@gateway/contracts';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ApiContract } from '../../http/openapi.decorators';
import { AnalyticsPresenter } from './analytics.presenter';

/** What every analytics route documents: the measures and how days are counted. */
export const ANALYTICS_RULES =
  'Days are UTC days. A payment counts once, on the day of its outcome: a success on the day it was paid, a decline or abandonment on the day it was recorded; ' +
  'a late success after a decline or abandonment moves it to `succeeded` (on its paid day). Refunds count on the day they were processed. ' +
  '`count` = succeeded + failed + abandoned (pending payments do not count); `success_rate` = succeeded / count (4 decimals, null when count is 0); ' +
  '`fees` = platform_fees + provider_fees; `net` = volume − fees − refunds. Amounts are exact, in the major unit. ' +
  'Range: `from` and `to` (YYYY-MM-DD, both included, at most 366 days); default the last 30 days, today (UTC) included. ' +
  'Without `currency`, one entry per supported currency (NGN, USD, GBP, KES), zeros where nothing happened. ' +
  'Figures are kept in the same database transaction as each payment outcome and refund, so they are exact as soon as the change is visible.';

@ApiTags('Analytics')
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly presenter: AnalyticsPresenter) {}

  @Get('summary')
  @Authenticated({ scope: 'analytics:read' })
  @ApiOperation({
    summary: 'Payment figures of a range',
    description: `Per currency: payments by outcome, success rate, volume, fees, refunds, net (the best customers: \`GET /analytics/top-customers\`). ${ANALYTICS_RULES}`,
  })
  @ApiContract({ response: AnalyticsSummaryResponse, errors: ['validation_error', 'invalid_currency'] })
  summary(@Tenant() ctx: DeveloperContext, @Query() query: AnalyticsSummaryQuery): Promise<AnalyticsSummaryResponse> {
    return this.presenter.summary(ctx, query);
  }

  @Get('timeseries')
  @Authenticated({ scope: 'analytics:read' })
  @ApiOperation({
    summary: 'Payment figures per day, week or month',
    description: `The summary's measures per bucket: \`interval\` day (default), week (ISO weeks, Monday first) or month (calendar months). Every bucket of the range is present (zeros when nothing happened); the first and last are cut to the range. ${ANALYTICS_RULES}`,
  })
  @ApiContract({ response: AnalyticsTimeseriesResponse, errors: ['validation_error', 'invalid_currency'] })
  timeseries(@Tenant() ctx: DeveloperContext, @Query() query: AnalyticsTimeseriesQuery): Promise<AnalyticsTimeseriesResponse> {
    return this.presenter.timeseries(ctx, query);
  }

  @Get('top-customers')
  @Authenticated({ scope: 'analytics:read' })
  @ApiOperation({
    summary: 'The best customers of a range',
    description:
      'Per currency, the `limit` (1–20, default 5) customers with the largest successful volume paid in the range (UTC days `from`–`to`, as the summary), largest first: reference, the e-mail of their latest payment, count and volume (before fees and refunds). ' +
      'Ranked from the payments themselves rather than kept figures: on an account with a million payments in the range it takes about a second or two (docs/analytics.md); the summary stays fast.',
  })
  @ApiContract({ response: AnalyticsTopCustomersResponse, errors: ['validation_error', 'invalid_currency'] })
  topCustomers(@Tenant() ctx: DeveloperContext, @Query() query: AnalyticsTopCustomersQuery): Promise<AnalyticsTopCustomersResponse> {
    return this.presenter.topCustomers(ctx, query);
  }
}
