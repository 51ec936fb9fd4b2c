import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ExportExpiryService, ExportRunner } from '@gateway/domain/exports';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/** How often exports whose worker died mid-run are looked for (their heartbeat stops; see ExportRunner). */
const STALL_SWEEP_INTERVAL_MS = 30_000;

/**
 * Every EXPORT_EXPIRY_SCAN_INTERVAL_SECONDS (hourly by default), deletes the files of exports past
 * their expiry and marks them `expired` — at real time, and at their own time for test-mode tenants
 * whose test clock runs ahead. Every 30 s, re-queues exports left `running` by a dead worker.
 */
@Injectable()
export class ExportExpiryJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('ExportExpiry');
  private readonly expiry = new ScanRunner<number>(this.logger, 'Export expiry scan failed', 0);
  private readonly stalls = new ScanRunner<number>(this.logger, 'Export stall sweep failed', 0);

  constructor(
    private readonly expiries: ExportExpiryService,
    private readonly runner: ExportRunner,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Intervals read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('export-expiry', setInterval(() => void this.run(), this.config.exports.expiryScanIntervalMs));
    this.registry.addInterval('export-stalls', setInterval(() => void this.resumeStalled(), STALL_SWEEP_INTERVAL_MS));
  }

  /** Returns how many exports this run expired (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.expiry.run(async () => {
      const expired = await this.expiries.expireDue();
      if (expired > 0) this.logger.log(`Expired ${expired} exports (files deleted)`);
      return expired;
    });
  }

  resumeStalled(): Promise<number> {
    return this.stalls.run(async () => {
      const resumed = await this.runner.resumeStalled();
      if (resumed > 0) this.logger.warn(`Re-queued ${resumed} exports whose worker stopped mid-run`);
      return resumed;
    });
  }
}
