import { Get, Inject } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { DashboardDayResponse, DashboardPeriodResponse } from '@gateway/contracts';
import { DashboardResponse } from '@gateway/contracts';
import { LedgerService, toWalletBalanceResponse } from '@gateway/domain/ledger';
import { type DailyPaymentVolume, PaymentsService, type PaymentSummary, toPaymentResponse } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, CURRENCIES } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

const DAY_MS = 86_400_000;
/** The volume chart's span: the last 30 UTC days, today included. */
export const DASHBOARD_DAYS = 30;
const RECENT_PAYMENTS = 5;

/**
 * The portal's landing page in one call: balances, today's and this month's successful volume
 * and success rate, daily volume for the chart, the newest payments. Days are UTC days; the
 * figures are the payments module's (summed by PostgreSQL in `numeric`) and the ledger's.
 */
@PortalController('dashboard')
export class PortalDashboardController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly ledger: LedgerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Dashboard figures (this mode)',
    description:
      'Balances of every currency; successful volume per currency and success rate (successful / (successful + failed + abandoned)) of the payments created today and this month; ' +
      'daily successful volume of the last 30 days; the 5 newest payments. Periods go by payment creation time in UTC (as the payments list filters), from 00:00 UTC; ' +
      "in test mode “now” is the account's test clock.",
  })
  @ApiContract({ response: DashboardResponse, errors: ['authentication_failed', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext): Promise<DashboardResponse> {
    const ctx = accountContext(session);
    const now = await this.payments.now(ctx);
    const startOfToday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const startOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const chartFrom = new Date(startOfToday.getTime() - (DASHBOARD_DAYS - 1) * DAY_MS);
    // A payment created "now" must count: the windows end just after it.
    const to = new Date(now.getTime() + 1);
    const [balances, today, month, daily, recent] = await Promise.all([
      Promise.all(CURRENCIES.map(async (currency) => toWalletBalanceResponse(await this.ledger.balance(ctx, currency)))),
      this.payments.summarize(ctx, { from: startOfToday, to }),
      this.payments.summarize(ctx, { from: startOfMonth, to }),
      this.payments.dailyVolume(ctx, { from: chartFrom, to }),
      this.payments.list(ctx, { limit: RECENT_PAYMENTS }),
    ]);
    return {
      mode: ctx.mode,
      as_of: now.toISOString(),
      balances,
      today: toPeriodResponse(startOfToday, now, today),
      this_month: toPeriodResponse(startOfMonth, now, month),
      daily_volume: daily.map(toDayResponse),
      recent_payments: recent.items.map((view) => toPaymentResponse(view, this.config.api.publicBaseUrl)),
    };
  }
}

function toPeriodResponse(from: Date, to: Date, summaries: PaymentSummary[]): DashboardPeriodResponse {
  const succeeded = summaries.reduce((n, s) => n + s.succeededCount, 0);
  const unsuccessful = summaries.reduce((n, s) => n + s.unsuccessfulCount, 0);
  const outcomes = succeeded + unsuccessful;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    volumes: summaries.filter((s) => s.succeededCount > 0).map((s) => ({ currency: s.currency, volume: s.succeededVolume.toNumber(), count: s.succeededCount })),
    succeeded,
    unsuccessful,
    // A ratio of counts, not money: rounded to 4 decimals (99.99 %).
    success_rate: outcomes === 0 ? null : Math.round((succeeded * 10_000) / outcomes) / 10_000,
  };
}

function toDayResponse(day: DailyPaymentVolume): DashboardDayResponse {
  return { date: day.day, currency: day.currency, volume: day.volume.toNumber(), count: day.count };
}
