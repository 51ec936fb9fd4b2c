import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { type HousekeepingResult, IdentityHousekeepingService } from '@gateway/domain/identity';

const NOTHING: HousekeepingResult = { sessions: 0, tokens: 0, throttles: 0 };

/** Hourly: drops ended portal sessions, long-expired link tokens and stale login-throttle rows. */
@Injectable()
export class PortalHousekeepingJob {
  private readonly logger = new Logger('PortalHousekeeping');
  private running = false;

  constructor(private readonly housekeeping: IdentityHousekeepingService) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'portal-housekeeping' })
  async run(): Promise<HousekeepingResult> {
    // A slow run must not overlap the next tick in the same process.
    if (this.running) return NOTHING;
    this.running = true;
    try {
      const result = await this.housekeeping.purge();
      if (result.sessions + result.tokens + result.throttles > 0) {
        this.logger.log(`Purged ${result.sessions} portal sessions, ${result.tokens} link tokens, ${result.throttles} login-throttle rows`);
      }
      return result;
    } catch (error) {
      // Expired rows are refused anyway; the next run catches up.
      this.logger.error('Portal housekeeping failed', error instanceof Error ? error.stack : String(error));
      return NOTHING;
    } finally {
      this.running = false;
    }
  }
}
