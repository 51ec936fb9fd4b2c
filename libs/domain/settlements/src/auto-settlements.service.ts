import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { amountLimits } from '@gateway/domain/payments';
import { PaymentProvider } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, Clock, type Currency, DomainError } from '@gateway/platform';
import { isDuplicateAutoPeriod } from './settlements.repository';
import { SETTLEMENT_CURRENCIES, SettlementsService } from './settlements.service';

/**
 * Auto-settlement: accounts set to `daily` or `weekly` have their available balance (less the
 * configured minimum kept, AUTO_SETTLEMENT_MINIMUM_BALANCE) settled once per day or ISO week, from
 * AUTO_SETTLEMENT_TIME (UTC) on — weekly ones from that time on AUTO_SETTLEMENT_WEEKDAY until the ISO
 * week ends. Each becomes an `auto`
 * settlement that follows the approval rules; up to AUTO_SETTLEMENT_AUTO_APPROVE_LIMIT it is
 * approved on its own. A run that finds the period settled already does nothing (a unique period
 * key per account and currency), so any number of schedulers may run it, and a scheduler that was
 * down at the time catches up later in the period.
 */
@Injectable()
export class AutoSettlementsService {
  private readonly logger = new Logger(AutoSettlementsService.name);

  constructor(
    private readonly settlements: SettlementsService,
    private readonly developers: DevelopersService,
    private readonly ledger: LedgerService,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates the settlements due now; returns how many. */
  async run(): Promise<number> {
    const now = this.clock.now();
    const { hour, minute } = this.config.settlements.autoTime;
    const pastTimeOfDay = now.getUTCHours() * 60 + now.getUTCMinutes() >= hour * 60 + minute;
    let created = pastTimeOfDay ? await this.settleAll('daily', now.toISOString().slice(0, 10)) : 0;
    // Weekly: due from the configured weekday and time until the ISO week ends (Monday to Sunday).
    const today = isoWeekday(now.getUTCDay());
    const settlementDay = isoWeekday(this.config.settlements.autoWeekday);
    if (today > settlementDay || (today === settlementDay && pastTimeOfDay)) created += await this.settleAll('weekly', isoWeek(now));
    return created;
  }

  private async settleAll(frequency: 'daily' | 'weekly', period: string): Promise<number> {
    let created = 0;
    for (const developer of await this.developers.autoSettling(frequency)) {
      // The settlement bank account is an NGN account (docs/settlements.md).
      for (const currency of SETTLEMENT_CURRENCIES.filter((c) => this.provider.capabilities('live').supports('transfers', c))) {
        try {
          if (await this.settleOne(developer, currency, period)) created += 1;
        } catch (error) {
          this.logger.warn(`auto-settlement of ${developer.id} (${currency}, ${period}) not made: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    return created;
  }

  /** The period's settlement of one wallet: its available balance less the minimum kept, when that is at least a payment's minimum. */
  private async settleOne(developer: Developer, currency: Currency, period: string): Promise<boolean> {
    const { available } = await this.ledger.balance({ developerId: developer.id, mode: 'live' }, currency);
    const keep = Amount.parse(this.config.settlements.autoMinimumBalance[currency] ?? '0');
    const amount = available.minus(keep);
    if (amount.lt(amountLimits(this.config).minimumByCurrency[currency])) return false;
    try {
      await this.settlements.create({ developer, amount, currency, origin: 'auto', requestedBy: null, autoPeriod: period });
      return true;
    } catch (error) {
      if (isDuplicateAutoPeriod(error)) return false; // settled already this period (another scheduler, or an earlier run)
      if (error instanceof DomainError && error.code === 'insufficient_wallet_balance') return false; // spent meanwhile: the next run tries again
      throw error;
    }
  }
}

/** Monday 1 … Sunday 7, from JavaScript's Sunday 0 … Saturday 6. */
function isoWeekday(day: number): number {
  return day === 0 ? 7 : day;
}

/** `2026-W48`: the ISO 8601 week of `date` (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
