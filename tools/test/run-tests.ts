import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@gateway/platform';
import { dropTestDatabase } from '@gateway/platform/testing';

/**
 * `npm test`: every project's tests, then the reliability tier, each on a fresh database it
 * creates on this run's server — DATABASE_URL's server when set, otherwise an embedded PostgreSQL
 * started for the run. The tier runs after the other tests, not beside them: its trials load both
 * cores, and timing-sensitive tests must not share the machine with them. `--reliability` runs the
 * tier alone (`npm run test:reliability`). Other arguments go to `nx run-many` (e.g.
 * `npm test -- --projects=api-e2e`).
 */
async function main(): Promise<number> {
  const reliabilityOnly = process.argv.includes('--reliability');
  const args = process.argv.slice(2).filter((arg) => arg !== '--reliability');
  const stages = reliabilityOnly ? ['reliability'] : ['test', 'reliability'];
  // A signal sent to this process alone (npm forwards one: the script `exec`s it) is passed to the
  // test run; the embedded server is stopped once the run has ended.
  let child: ChildProcess | undefined;
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      interrupted = true;
      child?.kill(signal);
    });
  }
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL || process.env.DATABASE_URL;
  const embedded = serverUrl
    ? undefined
    : await startEmbeddedPostgres({ dir: '.data/test-postgres', port: 54330, log: (l) => process.stderr.write(`${l}\n`) });
  // The e2e tests' databases and the apps' logs stay until the reliability tier's secrets-at-rest
  // scan has read them (apps/api-e2e/src/support/test-artifacts.ts); this run removes them at the end.
  const artifacts = await mkdtemp(join(tmpdir(), 'gateway-test-run-'));
  const env = { ...process.env, TEST_DATABASE_SERVER_URL: serverUrl ?? embedded?.url, NX_TUI: 'false', TEST_RUN_ARTIFACTS_DIR: artifacts };
  try {
    // Every stage runs, so one failing stage does not hide another's results; the run fails if any did.
    let failed = 0;
    for (const target of stages) {
      if (interrupted) return 1;
      const code = await new Promise<number>((resolve) => {
        child = spawn(process.execPath, [require.resolve('nx/bin/nx'), 'run-many', '-t', target, '--outputStyle=stream', ...args], { env, stdio: 'inherit' });
        child.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
      });
      failed ||= code;
    }
    return failed;
  } finally {
    await removeArtifacts(artifacts, env.TEST_DATABASE_SERVER_URL as string);
    await embedded?.stop();
  }
}

/** Drops every database the stages kept (listed one per line in `databases.txt`) and removes the directory. */
async function removeArtifacts(dir: string, serverUrl: string): Promise<void> {
  const kept = await readFile(join(dir, 'databases.txt'), 'utf8').catch(() => '');
  for (const url of new Set(kept.split('\n').filter(Boolean))) {
    await dropTestDatabase(url, serverUrl).catch((error: unknown) => process.stderr.write(`could not drop ${new URL(url).pathname.slice(1)}: ${String(error)}\n`));
  }
  await rm(dir, { recursive: true, force: true });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tests could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
