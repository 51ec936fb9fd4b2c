import { Injectable, Logger } from '@nestjs/common';
import { Clock, type DeveloperContext, requireTestMode } from '@gateway/platform';
import { PaymentIntentAuthorizationService } from './payment-intent-authorization.service';
import { PaymentIntentSettlementService } from './payment-intent-settlement.service';
import { PaymentIntentsRepository } from './payment-intents.repository';

/**
 * A create that never learned whether its hold was placed (the provider timed out) and was not
 * retried with its Idempotency-Key within this time is given up: the intent becomes `canceled`
 * and its hold, if the provider placed one, is released.
 */
export const UNCONFIRMED_HOLD_TTL_MS = 60 * 60_000;
/** A capture claimed this long ago whose outcome never came back is resumed by the upkeep scan. */
export const STALLED_CAPTURE_MS = 5 * 60_000;
/** An intent awaiting its customer is asked about at the provider at most this often by the scan (the callback usually tells first). */
export const AWAITING_ACTION_CHECK_MS = 5 * 60_000;
/** At most this many owed releases or stalled claims per scan; the rest wait for the next one. */
const UPKEEP_BATCH = 100;

/**
 * The hold upkeep the scheduler runs every five minutes (and the sandbox on demand): expiry of
 * holds past their 7 days, releases still owed, and what requests left half-way. Conditional
 * UPDATEs and idempotent provider calls, so several schedulers may run it at once.
 */
@Injectable()
export class PaymentIntentsUpkeepService {
  private readonly logger = new Logger(PaymentIntentsUpkeepService.name);

  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly settlement: PaymentIntentSettlementService,
    private readonly authorizations: PaymentIntentAuthorizationService,
    private readonly clock: Clock,
  ) {}

  /**
   * Holds past their 7 days, and authorization links past their hours (`requires_action` the
   * customer never used), become `expired`; then every release still owed (of expired or
   * canceled intents, this run's or an earlier one's that failed or was cut short) is retried.
   * Returns how many intents expired. They expire UPKEEP_BATCH a statement, so a backlog never
   * becomes one statement locking every due intent.
   */
  async expireHolds(asOf?: Date, ctx?: DeveloperContext): Promise<number> {
    const now = asOf ?? this.clock.now();
    let expired = 0;
    for (let batch = UPKEEP_BATCH; batch === UPKEEP_BATCH; expired += batch) batch = await this.repository.expire(now, UPKEEP_BATCH, ctx);
    for (const intent of await this.repository.findReleasesOwed(UPKEEP_BATCH, ctx)) await this.settlement.release(intent);
    return expired;
  }

  /**
   * The sandbox's run of expireHolds: this developer's test holds only, optionally as of a later time.
   * @throws test_mode_required
   */
  async expireTestHolds(ctx: DeveloperContext, asOf?: Date): Promise<number> {
    requireTestMode(ctx);
    return this.expireHolds(asOf, ctx);
  }

  /**
   * Finishes what requests left half-way: creates never confirmed nor retried within
   * UNCONFIRMED_HOLD_TTL_MS are given up (`canceled`, their hold released), and captures claimed
   * more than STALLED_CAPTURE_MS ago are resumed (the provider captures once per reference), and
   * intents awaiting their customer are verified, so one whose callback was lost is not left to
   * lapse. Returns how many intents it dealt with.
   */
  async recoverInterrupted(): Promise<number> {
    const now = this.clock.now();
    const awaiting = await this.repository.findAwaitingAction(new Date(now.getTime() - AWAITING_ACTION_CHECK_MS), UPKEEP_BATCH);
    for (const intent of awaiting) {
      const synced = await this.authorizations.sync({ developerId: intent.developerId, mode: intent.mode }, intent);
      if (synced.status === intent.status) await this.repository.markChecked(intent.id, now);
    }

    const abandoned = await this.repository.abandonUnconfirmed(now, new Date(now.getTime() - UNCONFIRMED_HOLD_TTL_MS), UPKEEP_BATCH);
    for (const intent of abandoned) await this.settlement.release(intent);

    const stalled = await this.repository.findStalledCaptures(new Date(now.getTime() - STALLED_CAPTURE_MS), UPKEEP_BATCH);
    for (const intent of stalled) {
      try {
        await this.settlement.completeCapture({ developerId: intent.developerId, mode: intent.mode }, intent);
      } catch (error) {
        this.logger.warn(`capture of ${intent.reference} could not be finished now: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return awaiting.length + abandoned.length + stalled.length;
  }
}
