import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config';

/** Nest's own start-up chatter (a line per module and per route): shown only at LOG_LEVEL=debug. */
const NEST_BOOT_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

const LEVELS_FROM: Record<AppConfig['logLevel'], LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * The processes' logger: LOG_LEVEL decides what is printed, Nest's module and route listings
 * count as debug, and colours are used only on a terminal (a file or a pipe gets plain text).
 */
export class GatewayLogger extends ConsoleLogger {
  constructor(level: AppConfig['logLevel']) {
    super({ logLevels: LEVELS_FROM[level], colors: process.stdout.isTTY === true });
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context)) {
      super.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }
}
