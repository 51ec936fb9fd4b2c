import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { TimeRulesService } from '@gateway/domain/time-rules';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/**
 * Runs the time-driven rules of every developer whose test clock runs ahead, at that clock's time
 * (docs/test-clocks.md), every TEST_CLOCK_SCAN_INTERVAL_SECONDS. The regular scans go on at real
 * time for everyone; this only adds what an advanced clock makes due early. Advancing a clock runs
 * them at once too, so this catches up whatever that run left and what comes due afterwards.
 */
@Injectable()
export class TestClockRulesJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('TestClockRules');
  private readonly scan = new ScanRunner<number>(this.logger, 'Test-clock rules run failed', 0);

  constructor(
    private readonly rules: TimeRulesService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    const timer = setInterval(() => void this.run(), this.config.scheduler.testClockScanIntervalMs);
    this.registry.addInterval('test-clock-rules', timer);
  }

  /** Returns how many advanced clocks this run served (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(() => this.rules.runAdvancedClocks());
  }
}
