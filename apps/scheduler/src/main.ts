import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfigOrExit, resolveDatabase, runMigrations, stopWhenSupervisorDies } from '@gateway/platform';
import { SchedulerModule } from './scheduler.module';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = new Logger('scheduler');
  const database = await resolveDatabase(config, (line) => logger.log(line));
  await runMigrations(database.url);

  const app = await NestFactory.create<NestFastifyApplication>(
    SchedulerModule.forRoot(config, database.url),
    new FastifyAdapter({ logger: false }),
    { logger: ['error', 'warn', 'log'] },
  );
  await app.listen({ host: config.scheduler.host, port: config.scheduler.port });
  logger.log(`scheduler running (health: http://${config.scheduler.host}:${config.scheduler.port}/health)`);

  // Clean shutdown: stop cron jobs and workers, let running jobs finish, then close the pool.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  stopWhenSupervisorDies(process.env, () => void shutdown('supervisor gone'));
}

void main().catch((error: unknown) => {
  process.stderr.write(`scheduler failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
