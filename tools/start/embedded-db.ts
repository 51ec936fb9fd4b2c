import { loadConfigOrExit, startEmbeddedPostgres, stopWhenSupervisorDies } from '@gateway/platform';

/**
 * The embedded PostgreSQL server for `npm start`, in its own process: the supervisor stops it
 * last, after every app, and nothing else in the supervisor has to handle its signals.
 * Prints `READY <url>` once the server accepts connections.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = await startEmbeddedPostgres({
    dir: config.database.embeddedDir,
    port: config.database.embeddedPort,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`READY ${db.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void db.stop().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  stopWhenSupervisorDies(process.env, stop);
  setInterval(() => undefined, 60_000); // keep the process alive until told to stop
}

void main().catch((error: unknown) => {
  process.stderr.write(`embedded database failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
