import { Injectable } from '@nestjs/common';
import type { AnalyticsSummaryResponse, AnalyticsTimeseriesResponse, AnalyticsTopCustomersResponse } from '@gateway/contracts';
import {
  type AnalyticsQuery,
  type AnalyticsScope,
  AnalyticsService,
  toAnalyticsSummaryResponse,
  toAnalyticsTimeseriesResponse,
  toAnalyticsTopCustomersResponse,
} from '@gateway/domain/analytics';
import { parseRequestCurrency, PaymentsService } from '@gateway/domain/payments';
import { CURRENCIES, type DeveloperContext } from '@gateway/platform';

/** How many customers a ranking holds when the request does not say. */
export const DEFAULT_TOP_CUSTOMERS = 5;

/**
 * The analytics responses of the three audiences (merchants' keys, the portal, platform staff):
 * the analytics module's figures, and for one account the payments module's top customers of the
 * same range.
 */
@Injectable()
export class AnalyticsPresenter {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly payments: PaymentsService,
  ) {}

  /** @throws validation_error, invalid_currency */
  async summary(scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsSummaryResponse> {
    return toAnalyticsSummaryResponse(scope.mode, await this.analytics.summary(scope, query));
  }

  /** @throws validation_error, invalid_currency */
  async timeseries(scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsTimeseriesResponse> {
    return toAnalyticsTimeseriesResponse(scope.mode, await this.analytics.timeseries(scope, query));
  }

  /**
   * Ranked from the account's successful payments of the range (an index-only aggregation, not a
   * rollup: see docs/analytics.md for its cost on large accounts).
   * @throws validation_error, invalid_currency
   */
  async topCustomers(ctx: DeveloperContext, query: AnalyticsQuery & { limit?: number }): Promise<AnalyticsTopCustomersResponse> {
    const range = this.analytics.range(query);
    const currency = query.currency === undefined ? undefined : parseRequestCurrency(query.currency);
    const top = await this.payments.topCustomers(ctx, { ...range, currency }, query.limit ?? DEFAULT_TOP_CUSTOMERS);
    return toAnalyticsTopCustomersResponse(ctx.mode, range, currency ? [currency] : CURRENCIES, top);
  }
}
