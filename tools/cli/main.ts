import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError, loadConfigOrExit, resolveDatabase, runMigrations } from '@gateway/platform';
import { CommanderError } from 'commander';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

/**
 * Operator CLI: `npm run cli -- <command>`. Uses DATABASE_URL, or the embedded server (shared
 * with a running `npm start`, started on demand otherwise).
 */
async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(async (action, json) => {
    const config = loadConfigOrExit();
    const database = await resolveDatabase(config, (line) => process.stderr.write(`${line}\n`));
    let app: INestApplicationContext | undefined;
    try {
      await runMigrations(database.url);
      app = await NestFactory.createApplicationContext(CliModule.forRoot(config, database.url), { logger: ['error'] });
      await action(app, (human, data) => process.stdout.write(`${json ? JSON.stringify(data, null, 2) : human}\n`));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      process.stderr.write(`error: ${error.message}\n`);
      exitCode = 1;
    } finally {
      await app?.close();
      await database.stop();
    }
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
