import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AdminAnalyticsSummaryQuery,
  AdminAnalyticsSummaryResponse,
  AdminAnalyticsTimeseriesQuery,
  AdminAnalyticsTimeseriesResponse,
  AnalyticsSummaryQuery,
  AnalyticsSummaryResponse,
  AnalyticsTimeseriesQuery,
  AnalyticsTimeseriesResponse,
  AnalyticsTopCustomersQuery,
  AnalyticsTopCustomersResponse,
} from '@gateway/contracts';
import type { AnalyticsScope } from '@gateway/domain/analytics';
import { ApiContract } from '../../http/openapi.decorators';
import { ANALYTICS_RULES } from '../analytics/analytics.controller';
import { AnalyticsPresenter } from '../analytics/analytics.presenter';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/** The portal's analytics page: the session's account in the session's mode, as the merchant API answers it. */
@PortalController('analytics')
export class PortalAnalyticsController {
  constructor(private readonly presenter: AnalyticsPresenter) {}

  @Get('summary')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Payment figures of a range (this mode)', description: `As \`GET /api/v1/analytics/summary\`. ${ANALYTICS_RULES}` })
  @ApiContract({ response: AnalyticsSummaryResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  summary(@PortalSession() session: PortalSessionContext, @Query() query: AnalyticsSummaryQuery): Promise<AnalyticsSummaryResponse> {
    return this.presenter.summary(accountContext(session), query);
  }

  @Get('timeseries')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Payment figures per day, week or month (this mode)', description: `As \`GET /api/v1/analytics/timeseries\`. ${ANALYTICS_RULES}` })
  @ApiContract({ response: AnalyticsTimeseriesResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  timeseries(@PortalSession() session: PortalSessionContext, @Query() query: AnalyticsTimeseriesQuery): Promise<AnalyticsTimeseriesResponse> {
    return this.presenter.timeseries(accountContext(session), query);
  }

  @Get('top-customers')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'The best customers of a range (this mode)', description: 'As `GET /api/v1/analytics/top-customers`.' })
  @ApiContract({ response: AnalyticsTopCustomersResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  topCustomers(@PortalSession() session: PortalSessionContext, @Query() query: AnalyticsTopCustomersQuery): Promise<AnalyticsTopCustomersResponse> {
    return this.presenter.topCustomers(accountContext(session), query);
  }
}

/** Platform staff: the same figures across every account of a mode, or for one account. */
@PortalController('admin/analytics')
export class PortalAdminAnalyticsController {
  constructor(private readonly presenter: AnalyticsPresenter) {}

  @Get('summary')
  @PortalAccess({ session: 'active', platform: 'platform:overview:read' })
  @ApiOperation({
    summary: "Payment figures of a range, every account's or one account's",
    description: `\`mode\` (default live) and optionally \`developer_id\`. ${ANALYTICS_RULES}`,
  })
  @ApiContract({ response: AdminAnalyticsSummaryResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  async summary(@Query() query: AdminAnalyticsSummaryQuery): Promise<AdminAnalyticsSummaryResponse> {
    const scope = adminScope(query);
    return { ...(await this.presenter.summary(scope, query)), developer_id: scope.developerId };
  }

  @Get('timeseries')
  @PortalAccess({ session: 'active', platform: 'platform:overview:read' })
  @ApiOperation({ summary: "Payment figures per day, week or month, every account's or one account's", description: `\`mode\` (default live) and optionally \`developer_id\`. ${ANALYTICS_RULES}` })
  @ApiContract({ response: AdminAnalyticsTimeseriesResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  async timeseries(@Query() query: AdminAnalyticsTimeseriesQuery): Promise<AdminAnalyticsTimeseriesResponse> {
    const scope = adminScope(query);
    return { ...(await this.presenter.timeseries(scope, query)), developer_id: scope.developerId };
  }
}

function adminScope(query: AdminAnalyticsSummaryQuery): AnalyticsScope {
  return { mode: query.mode ?? 'live', developerId: query.developer_id ?? null };
}
