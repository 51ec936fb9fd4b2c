import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayLogger, loadConfigOrExit, onShutdown, resolveDatabase, runMigrations } from '@gateway/platform';
import { SchedulerModule } from './scheduler.module';

/** Running jobs get this long to finish on shutdown before the process exits anyway. */
const JOBS_FINISH_WITHIN_MS = 30_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const gatewayLogger = new GatewayLogger(config.logLevel);
  Logger.overrideLogger(gatewayLogger);
  const logger = new Logger('scheduler');
  const database = await resolveDatabase(config, (line) => logger.log(line));
  await runMigrations(database.url);

  const app = await NestFactory.create<NestFastifyApplication>(
    SchedulerModule.forRoot(config, database.url),
    new FastifyAdapter({ logger: false }),
    { logger: gatewayLogger },
  );
  await app.listen({ host: config.scheduler.host, port: config.scheduler.port });
  logger.log(`scheduler listening on http://${config.scheduler.host}:${config.scheduler.port} (health: /health)`);

  // Closing the app stops cron jobs and workers and lets running jobs finish; the pool goes last.
  onShutdown(
    [
      { name: 'scheduler', close: () => app.close() },
      { name: 'database', close: () => database.stop() },
    ],
    { logger, deadlineMs: JOBS_FINISH_WITHIN_MS },
  );
}

void main().catch((error: unknown) => {
  process.stderr.write(`scheduler failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
