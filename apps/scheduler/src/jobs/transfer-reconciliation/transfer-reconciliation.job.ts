import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { TransfersService } from '@gateway/domain/transfers';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/**
 * Every TRANSFER_RECONCILE_INTERVAL_SECONDS (a minute by default), transfers still pending after
 * RECONCILE_AFTER_MS — their callback was lost, their answer timed out, or the process died between
 * reserving and sending — are verified at the provider and settled from its answer; one the
 * provider never got is sent under its own reference, which the provider never pays twice. Each is
 * claimed before it is looked at, so several schedulers may run it.
 */
@Injectable()
export class TransferReconciliationJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('TransferReconciliation');
  // On failure the next tick retries: a pending transfer keeps its reservation.
  private readonly scan = new ScanRunner<number>(this.logger, 'Transfer-reconciliation scan failed', 0);

  constructor(
    private readonly transfers: TransfersService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('transfer-reconciliation', setInterval(() => void this.run(), this.config.transfers.reconcileIntervalMs));
  }

  /** Returns how many transfers this run looked at (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(async () => {
      const reconciled = await this.transfers.reconcilePending();
      if (reconciled > 0) this.logger.log(`Asked the provider about ${reconciled} pending transfers`);
      return reconciled;
    });
  }
}
