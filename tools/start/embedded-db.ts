import { loadConfigOrExit, onShutdown, startEmbeddedPostgres } from '@gateway/platform';

/**
 * The embedded PostgreSQL server for `npm start`, in its own process: the supervisor stops it
 * last, after every app, and nothing else in the supervisor has to handle its signals.
 * Prints `READY <url>` once the server accepts connections, or `FAILED <why, what to do>`.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = await startEmbeddedPostgres({
    dir: config.database.embeddedDir,
    port: config.database.embeddedPort,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`embedded PostgreSQL listening on 127.0.0.1:${config.database.embeddedPort} (data in ${db.dataDir})\n`);
  process.stdout.write(`READY ${db.url}\n`);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // As long as the supervisor waits for it (stopAll's grace) before killing what is left.
  onShutdown([{ name: 'PostgreSQL', close: () => db.stop() }], { logger: { log, error: log }, deadlineMs: 20_000 });
  setInterval(() => undefined, 60_000); // keep the process alive until told to stop
}

void main().catch((error: unknown) => {
  process.stdout.write(`FAILED ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
