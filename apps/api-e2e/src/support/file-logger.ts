import { GatewayLogger } from '@gateway/platform';
import type { LogLevel } from '@nestjs/common';
import { appendFileSync } from 'node:fs';

/**
 * The gateway's own logger (GatewayLogger: the same levels and format), writing to a file instead
 * of the terminal. At `debug`, so the scan reads everything the app can log.
 */
export class FileLogger extends GatewayLogger {
  constructor(private readonly file: string) {
    super('debug');
    // Plain text: colour codes around a value would hide it from the scan's word boundaries.
    this.options.colors = false;
  }

  protected override printMessages(messages: unknown[], context = '', logLevel: LogLevel = 'log', _stream?: 'stdout' | 'stderr', errorStack?: unknown): void {
    for (const message of messages) {
      const line = this.formatMessage(logLevel, message, this.formatPid(process.pid), logLevel.toUpperCase().padStart(7, ' '), this.formatContext(context), this.updateAndGetTimestampDiff());
      appendFileSync(this.file, line);
    }
    if (errorStack) appendFileSync(this.file, `${String(errorStack)}\n`);
  }

  protected override printStackTrace(): void {
    // printMessages wrote the stack already.
  }
}
