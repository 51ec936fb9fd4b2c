import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminOverviewResponse, MODES, type Mode, type OverviewCurrencyResponse } from '@gateway/contracts';
import { type AnalyticsSummary, AnalyticsService, DEFAULT_RANGE_DAYS, rateOf } from '@gateway/domain/analytics';
import { RequestLogsService } from '@gateway/domain/request-logs';
import { SettlementsService } from '@gateway/domain/settlements';
import { Clock } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController } from './auth/portal-access';

const DAY_MS = 86_400_000;

/**
 * Platform staff's landing page: each mode's payments today and over the last 30 days, the
 * settlements waiting for approval, and the API's error rates of the last 24 hours, each asked of
 * the module that owns the figures.
 */
@PortalController('admin/overview')
export class PortalAdminOverviewController {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly settlements: SettlementsService,
    private readonly requestLogs: RequestLogsService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', platform: 'platform:overview:read' })
  @ApiOperation({
    summary: 'The platform at a glance',
    description:
      `Per mode and currency, every account's payments of today and of the last ${DEFAULT_RANGE_DAYS} days (UTC days, today included; counted as the analytics routes count them): successful volume and payments by outcome. ` +
      'Settlements waiting for approval (count and sum per mode and currency). API requests of the last 24 hours and the share answered 4xx and 5xx (4 decimals, null without requests).',
  })
  @ApiContract({ response: AdminOverviewResponse, errors: ['authentication_failed', 'insufficient_role'] })
  async get(): Promise<AdminOverviewResponse> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const since = new Date(now.getTime() - DAY_MS);
    const [modes, pending, requests] = await Promise.all([
      Promise.all(
        MODES.map(async (mode) => {
          const [ofToday, ofMonth] = await Promise.all([
            this.analytics.summary({ mode, developerId: null }, { from: today, to: today }),
            this.analytics.summary({ mode, developerId: null }, { to: today }),
          ]);
          return { mode, today: toCurrencies(ofToday), last_30_days: toCurrencies(ofMonth) };
        }),
      ),
      this.settlements.pendingApprovalTotals(),
      this.requestLogs.statusClassCounts(since),
    ]);
    return {
      as_of: now.toISOString(),
      modes,
      settlements_pending_approval: pending.map((p) => ({ mode: p.mode as Mode, currency: p.currency, count: p.count, amount: p.amount.toNumber() })),
      api_errors_24h: {
        since: since.toISOString(),
        requests: requests.total,
        client_errors: requests.clientErrors,
        server_errors: requests.serverErrors,
        client_error_rate: toRate(rateOf(requests.clientErrors, requests.total)),
        server_error_rate: toRate(rateOf(requests.serverErrors, requests.total)),
      },
    };
  }
}

function toCurrencies(summary: AnalyticsSummary): OverviewCurrencyResponse[] {
  return summary.currencies.map((c) => ({ currency: c.currency, volume: c.volume.toNumber(), count: c.count, succeeded: c.succeeded, failed: c.failed, abandoned: c.abandoned }));
}

function toRate(rate: string | null): number | null {
  return rate === null ? null : Number(rate);
}
