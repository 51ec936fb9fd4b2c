import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { EndpointDisablingService } from '@gateway/domain/webhook-alerts';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/** Endpoints disabled per batch (one transaction each, with their events and e-mails); the run continues until a batch is short. */
const BATCH = 50;

/**
 * Every WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS (5 minutes by default), disables the webhook
 * endpoints whose deliveries kept failing (WEBHOOK_DISABLE_AFTER_FAILURES in a row, over
 * WEBHOOK_DISABLE_AFTER_DAYS) and e-mails their owners. Minutes late is nothing against a run of
 * days, and the scan reads a partial index of failing endpoints only. Each endpoint is moved by
 * a conditional UPDATE that re-checks the rule (another scheduler's waits for the first to commit,
 * then finds it disabled), so several schedulers may run it and each endpoint is disabled,
 * announced and mailed once.
 */
@Injectable()
export class EndpointDisablingJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('EndpointDisabling');
  // On failure the next tick retries: the endpoint stays enabled (and failing) until one run disables it.
  private readonly scan = new ScanRunner<number>(this.logger, 'Failing webhook endpoints scan failed', 0);

  constructor(
    private readonly disabling: EndpointDisablingService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('webhook-endpoint-disabling', setInterval(() => void this.run(), this.config.webhooks.disableScanIntervalMs));
  }

  /** Returns how many endpoints this run disabled (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(async () => {
      let total = 0;
      for (let disabled = BATCH; disabled === BATCH; ) {
        const batch = await this.disabling.disableFailingEndpoints(BATCH);
        for (const endpoint of batch) this.logger.warn(`Disabled webhook endpoint ${endpoint.reference} (${endpoint.mode}): ${endpoint.failedDeliveries} failed deliveries in a row`);
        disabled = batch.length;
        total += disabled;
      }
      return total;
    });
  }
}
