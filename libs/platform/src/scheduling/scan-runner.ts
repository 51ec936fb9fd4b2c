import type { LoggerService } from '@nestjs/common';

/**
 * The one shape every scheduler scan shares. A tick that finds the previous run of the same scan
 * still going in this process is skipped (other processes may run the scan at the same moment:
 * every scan claims its rows, so that is safe). A failure is logged and answered with the idle
 * result: scans leave nothing half-done, and the next tick retries.
 */
export class ScanRunner<T> {
  private running = false;

  constructor(
    private readonly logger: Pick<LoggerService, 'error'>,
    private readonly failureMessage: string,
    private readonly idle: T,
  ) {}

  /** Runs `scan` unless a run is already going; the idle result when skipped or failed. */
  async run(scan: () => Promise<T>): Promise<T> {
    if (this.running) return this.idle;
    this.running = true;
    try {
      return await scan();
    } catch (error) {
      this.logger.error(this.failureMessage, error instanceof Error ? error.stack : String(error));
      return this.idle;
    } finally {
      this.running = false;
    }
  }
}
