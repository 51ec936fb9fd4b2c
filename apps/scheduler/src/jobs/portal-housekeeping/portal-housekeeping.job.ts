import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { type HousekeepingResult, IdentityHousekeepingService } from '@gateway/domain/identity';
import { ScanRunner } from '@gateway/platform';

const NOTHING: HousekeepingResult = { sessions: 0, tokens: 0, throttles: 0 };

/** Hourly: drops ended portal sessions, long-expired link tokens and stale login-throttle rows. */
@Injectable()
export class PortalHousekeepingJob {
  private readonly logger = new Logger('PortalHousekeeping');
  // On failure the next tick retries: expired rows are refused anyway.
  private readonly scan = new ScanRunner<HousekeepingResult>(this.logger, 'Portal housekeeping failed', NOTHING);

  constructor(private readonly housekeeping: IdentityHousekeepingService) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'portal-housekeeping' })
  async run(): Promise<HousekeepingResult> {
    return this.scan.run(async () => {
      const result = await this.housekeeping.purge();
      if (result.sessions + result.tokens + result.throttles > 0) {
        this.logger.log(`Purged ${result.sessions} portal sessions, ${result.tokens} link tokens, ${result.throttles} login-throttle rows`);
      }
      return result;
    });
  }
}
