import { loadConfigOrExit, resolveDatabase, runMigrations } from '@gateway/platform';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded server). */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const database = await resolveDatabase(config, (line) => process.stderr.write(`${line}\n`));
  try {
    const applied = await runMigrations(database.url);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
