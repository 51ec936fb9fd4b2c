import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit, resolveDatabase, runMigrations, stopWhenSupervisorDies } from '@gateway/platform';
import { createApiApp } from './bootstrap/create-api-app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = new Logger('api');
  const database = await resolveDatabase(config, (line) => logger.log(line));
  const applied = await runMigrations(database.url);
  if (applied.length) logger.log(`applied migrations: ${applied.join(', ')}`);

  const app = await createApiApp({ config, databaseUrl: database.url });
  await app.listen({ host: config.api.host, port: config.api.port });
  logger.log(`API listening on http://${config.api.host}:${config.api.port} (docs: /api/docs)`);

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
  process.stderr.write(`api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
