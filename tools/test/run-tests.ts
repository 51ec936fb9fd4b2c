import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEmbeddedPostgres } from '@gateway/platform';
import { createTemplateDatabase, dropTestDatabase, TEMPLATE_DATABASE_VARIABLE } from '@gateway/platform/testing';

/**
 * `npm test`: every project's tests (the Nx `test` target), each project on fresh databases it
 * creates on this run's server — DATABASE_URL's server when set, otherwise an embedded PostgreSQL
 * started for the run. `--reliability` runs the reliability tier instead (`npm run test:reliability`,
 * docs/reliability.md); `--all` runs both, the tier after the other tests (`npm run test:all`, what
 * CI runs): its trials load both cores, and timing-sensitive tests must not share the machine with
 * them. Other arguments go to `nx run-many` (e.g. `npm test -- --projects=api-e2e`).
 */
async function main(): Promise<number> {
  const flags = new Set(['--reliability', '--all']);
  const args = process.argv.slice(2).filter((arg) => !flags.has(arg));
  const stages = process.argv.includes('--all') ? ['test', 'reliability'] : process.argv.includes('--reliability') ? ['reliability'] : ['test'];
  // A signal sent to this process alone (npm forwards one: the script `exec`s it) is passed to the
  // test runs; the embedded server is stopped once they have ended.
  const children = new Set<ChildProcess>();
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      interrupted = true;
      for (const child of children) child.kill(signal);
    });
  }
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL || process.env.DATABASE_URL;
  const embedded = serverUrl
    ? undefined
    : await startEmbeddedPostgres({ dir: '.data/test-postgres', port: 54330, log: (l) => process.stderr.write(`${l}\n`) });
  const server = (serverUrl ?? embedded?.url) as string;
  // The e2e tests' databases and the apps' logs stay until the reliability tier's secrets-at-rest
  // scan has read them (apps/api-e2e/src/support/test-artifacts.ts); this run removes them at the end.
  // Without the tier they are dropped as each project ends.
  const artifacts = stages.includes('reliability') ? await mkdtemp(join(tmpdir(), 'gateway-test-run-')) : undefined;
  let template: { name: string; url: string } | undefined;
  // Every project's reporter appends its failed tests here (tools/test/failed-tests-reporter.js).
  const failures = join(await mkdtemp(join(tmpdir(), 'gateway-test-failures-')), 'failed-tests.txt');
  try {
    // Migrated once; every database the tests create is a copy of it (test-database.ts).
    template = await createTemplateDatabase(server);
    const env = {
      ...process.env,
      TEST_DATABASE_SERVER_URL: server,
      [TEMPLATE_DATABASE_VARIABLE]: template.name,
      NX_TUI: 'false',
      TEST_FAILURES_FILE: failures,
      ...(artifacts ? { TEST_RUN_ARTIFACTS_DIR: artifacts } : {}),
    };
    const run = ({ args: stageArgs, env: stageEnv }: Stage) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, stageArgs, { env: { ...env, ...stageEnv }, stdio: 'inherit' });
        children.add(child);
        child.on('exit', (exit, signal) => {
          children.delete(child);
          resolve(exit ?? (signal ? 1 : 0));
        });
      });
    // Every stage runs, so one failing stage does not hide another's results; the run fails if any did.
    let failed = 0;
    const timings: string[] = [];
    for (const target of stages) {
      const runs = target === 'test' && args.length === 0 ? everyProjectsTests() : [nxRunMany(target, ['-t', target, ...args])];
      for (const stage of runs) {
        if (interrupted) return 1;
        const started = performance.now();
        // Not `failed ||= await run(stage)`: that would skip every stage after the first that failed.
        const exit = await run(stage);
        failed ||= exit;
        timings.push(`${stage.name} ${Math.round((performance.now() - started) / 1000)} s${exit ? ' (failed)' : ''}`);
      }
    }
    // What each stage took, where a slow run shows which one to look at.
    process.stderr.write(`\n== stages: ${timings.join(', ')}\n`);
    return failed;
  } finally {
    await reportFailures(failures);
    if (artifacts) await removeArtifacts(artifacts, server);
    if (template) await dropTestDatabase(template.url, server);
    await embedded?.stop();
  }
}

/**
 * Every project's tests, in three stages one after the other: the e2e tests alone on two workers
 * (`nx run-many`, which builds the apps they start first), every other project's but the portal's
 * in one jest run on two workers (tools/test/projects.jest.config.js), then the portal's browser
 * tests alone on two workers. One e2e worker uses little more than one core (its files run the API
 * in the test's own thread and wait on it), so alone they take two. The browser tests: two workers
 * alone took 245 s where one took 362 s, but beside the libraries' tests both took 423 s, longer
 * than one after the other (146 s + 245 s); on a slower machine Chromium alone fills both cores.
 * Measured in docs/benchmarks.md ("The test suite").
 */
function everyProjectsTests(): Stage[] {
  return [
    nxRunMany(E2E_PROJECT, ['-t', 'test', `--projects=${E2E_PROJECT}`], { E2E_WORKERS: process.env.E2E_WORKERS || '2' }),
    { name: 'the other projects', args: [require.resolve('jest/bin/jest'), '-c', require.resolve('./projects.jest.config.js')] },
    nxRunMany(PORTAL_PROJECT, ['-t', 'test', `--projects=${PORTAL_PROJECT}`], { PORTAL_WORKERS: process.env.PORTAL_WORKERS || '2' }),
  ];
}

/** One stage: its name in the summary of timings, Node's arguments, and variables it gets beside the run's. */
interface Stage {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

function nxRunMany(name: string, args: string[], env?: Record<string, string>): Stage {
  return { name, args: [require.resolve('nx/bin/nx'), 'run-many', '--outputStyle=stream', ...args], env };
}

// The projects run apart from the others: the middle stage's configuration (JavaScript, as jest
// loads it) leaves them out.
const { RUN_APART } = require('./projects.jest.config.js') as { RUN_APART: [string, string] };
const [E2E_PROJECT, PORTAL_PROJECT] = RUN_APART;

/** Prints the failed tests of every stage, last: the runs' output interleaves and is long. */
async function reportFailures(file: string): Promise<void> {
  const failed = await readFile(file, 'utf8').catch(() => '');
  if (failed) process.stderr.write(`\n== failed tests, every stage\n${failed}`);
  await rm(dirname(file), { recursive: true, force: true });
}

/** Drops every database the stages kept (listed one per line in `databases.txt`) and removes the directory. */
async function removeArtifacts(dir: string, serverUrl: string): Promise<void> {
  const kept = await readFile(join(dir, 'databases.txt'), 'utf8').catch(() => '');
  const drops = [...new Set(kept.split('\n').filter(Boolean))].map((url) =>
    dropTestDatabase(url, serverUrl).catch((error: unknown) => process.stderr.write(`could not drop ${new URL(url).pathname.slice(1)}: ${String(error)}\n`)),
  );
  await Promise.all(drops);
  await rm(dir, { recursive: true, force: true });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tests could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
