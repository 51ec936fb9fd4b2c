import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AppConfig, loadConfigOrExit, runMigrations, SIMULATOR_DEVELOPMENT_SECRETS } from '@gateway/platform';
import { isRunning, type ManagedProcess, startProcess, stopAll, waitForHttp, waitForLine } from './processes';

/**
 * `npm start`: one command brings up the whole gateway — database (embedded unless DATABASE_URL
 * is set), API, scheduler, provider simulator and portal — and Ctrl-C stops all of it.
 */
const SIM_PORT = 4010;
const PORTAL_PORT = 4200;

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = (line: string) => process.stdout.write(`[start]         ${line}\n`);
  const node = (entry: string) => ['-r', '@swc-node/register', entry];
  // One persisted development key so every process can read what another encrypted.
  const supervised = { ...process.env, SUPERVISOR_PID: String(process.pid), ENCRYPTION_KEYS: process.env.ENCRYPTION_KEYS || developmentEncryptionKey() };

  // The embedded server lives in its own process so it is stopped last, after every app.
  let databaseProcess: ManagedProcess | undefined;
  let databaseUrl = config.database.url;
  if (!databaseUrl) {
    log('starting embedded PostgreSQL…');
    databaseProcess = startProcess('database', process.execPath, node('tools/start/embedded-db.ts'), supervised);
    databaseUrl = (await waitForLine(databaseProcess, /^READY (\S+)$/, 120_000))[1];
  }
  await runMigrations(databaseUrl);

  const apiUrl = `http://${config.api.host}:${config.api.port}`;
  const simUrl = `http://127.0.0.1:${SIM_PORT}`;
  const env = { ...supervised, DATABASE_URL: databaseUrl, PROVIDER_SIM_URL: simUrl };
  const processes: ManagedProcess[] = [
    startProcess('api', process.execPath, node('apps/api/src/main.ts'), env),
    startProcess('scheduler', process.execPath, node('apps/scheduler/src/main.ts'), env),
    startProcess('provider-sim', process.execPath, node('apps/provider-sim/src/main.ts'), {
      ...env,
      PORT: String(SIM_PORT),
      SIM_SECRET_KEYS: simulatorSecretKeys(config, simUrl),
      // The gateway's provider-webhook endpoint (POST /api/provider/webhooks), where callbacks are verified.
      SIM_WEBHOOK_URL: `${config.api.publicBaseUrl}/api/provider/webhooks`,
    }),
    startProcess('portal', process.execPath, node('tools/start/portal.ts'), {
      ...env,
      PORTAL_PORT: String(PORTAL_PORT),
      API_URL: apiUrl,
    }),
  ];

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await stopAll(processes);
    if (databaseProcess) await stopAll([databaseProcess], 20_000);
    log('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  for (const p of [...processes, ...(databaseProcess ? [databaseProcess] : [])]) {
    p.child.once('exit', (code, signal) => {
      if (stopping) return;
      log(`${p.name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    });
  }

  const byName = (name: string) => processes.find((p) => p.name === name) as ManagedProcess;
  const schedulerUrl = `http://${config.scheduler.host}:${config.scheduler.port}`;
  try {
    await Promise.all([
      waitForHttp(`${apiUrl}/ready`, 90_000, () => isRunning(byName('api'))),
      waitForHttp(`${schedulerUrl}/health`, 90_000, () => isRunning(byName('scheduler'))),
      waitForHttp(`${simUrl}/health`, 90_000, () => isRunning(byName('provider-sim'))),
      waitForHttp(`http://127.0.0.1:${PORTAL_PORT}/`, 90_000, () => isRunning(byName('portal'))),
    ]);
  } catch (error) {
    log(`start-up failed: ${(error as Error).message}`);
    return shutdown(1);
  }
  log('');
  log('The gateway is running:');
  log(`  API            ${apiUrl}/api/v1   (docs ${apiUrl}/api/docs)`);
  log(`  Portal         http://127.0.0.1:${PORTAL_PORT}`);
  log(`  Provider sim   ${simUrl}`);
  log(`  Scheduler      ${schedulerUrl}/health`);
  log(`  Database       ${databaseProcess ? 'embedded PostgreSQL' : 'DATABASE_URL'} (${redact(databaseUrl)})`);
  log('Press Ctrl-C to stop.');
}

/**
 * The simulator accepts the secret of every mode the API sends to it (by default both, with the
 * development secrets), so a changed PROVIDER_*_SECRET_KEY keeps working; a mode pointed at the
 * real provider keeps its secret away from the simulator.
 */
function simulatorSecretKeys(config: AppConfig, simUrl: string): string {
  const sameHost = (url: string) => url.replace('localhost', '127.0.0.1') === simUrl;
  const keys = [config.provider.test, config.provider.live].filter((a) => sameHost(a.baseUrl)).map((a) => a.secretKey);
  return (keys.length ? keys : [...SIMULATOR_DEVELOPMENT_SECRETS]).join(',');
}

function developmentEncryptionKey(): string {
  const file = '.data/dev-encryption-key';
  if (!existsSync(file)) {
    mkdirSync('.data', { recursive: true });
    writeFileSync(file, `dev:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

void main().catch((error: unknown) => {
  process.stderr.write(`start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
