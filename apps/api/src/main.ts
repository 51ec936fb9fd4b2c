import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { GatewayLogger, loadConfigOrExit, onShutdown, resolveDatabase, runMigrations } from '@gateway/platform';
import { createApiApp } from './bootstrap/create-api-app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  Logger.overrideLogger(new GatewayLogger(config.logLevel));
  const logger = new Logger('api');
  const database = await resolveDatabase(config, (line) => logger.log(line));
  const applied = await runMigrations(database.url);
  if (applied.length) logger.log(`applied migrations: ${applied.join(', ')}`);

  const app = await createApiApp({ config, databaseUrl: database.url });
  await app.listen({ host: config.api.host, port: config.api.port });
  logger.log(`API listening on http://${config.api.host}:${config.api.port} (docs: /api/docs)`);

  onShutdown(
    [
      { name: 'HTTP server', close: () => app.close() },
      { name: 'database', close: () => database.stop() },
    ],
    { logger },
  );
}

void main().catch((error: unknown) => {
  process.stderr.write(`api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
