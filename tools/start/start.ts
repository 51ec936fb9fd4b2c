import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AppConfig, loadConfigOrExit, runMigrations, SIMULATOR_DEVELOPMENT_SECRETS, stopWhenSupervisorDies } from '@gateway/platform';
import { isRunning, type ManagedProcess, startProcess, stopAll, waitForHttp, waitForLine } from './processes';

/**
 * `npm start`: one command brings up the whole gateway — database (embedded unless DATABASE_URL
 * is set), API, scheduler, provider simulator and portal — and Ctrl-C, SIGTERM or SIGHUP (to npm
 * or to this process) stops all of it, the database last.
 */
const log = (line: string) => process.stdout.write(`[start]         ${line}\n`);

const started: ManagedProcess[] = [];
let database: ManagedProcess | undefined;
let stopping = false;

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await stopAll(started);
  if (database) await stopAll([database], 20_000);
  log('stopped');
  process.exit(code);
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));
  // npm forwards signals to this process (the script `exec`s it); should npm itself be killed, stop too.
  if (process.ppid > 1) stopWhenSupervisorDies({ SUPERVISOR_PID: String(process.ppid) }, () => void shutdown(1));

  const node = (entry: string) => ['-r', '@swc-node/register', entry];
  // One persisted development key so every process can read what another encrypted.
  const supervised = { ...process.env, SUPERVISOR_PID: String(process.pid), ENCRYPTION_KEYS: process.env.ENCRYPTION_KEYS || developmentEncryptionKey() };

  // The embedded server lives in its own process so it is stopped last, after every app.
  let databaseUrl = config.database.url;
  if (!databaseUrl) {
    log('starting embedded PostgreSQL…');
    const outcomeLine = /^(READY|FAILED) (.+)$/;
    database = startProcess('database', process.execPath, node('tools/start/embedded-db.ts'), supervised, outcomeLine);
    const [, outcome, detail] = await waitForLine(database, outcomeLine, 120_000);
    if (outcome === 'FAILED') throw new Error(`embedded PostgreSQL cannot start: ${detail}`);
    databaseUrl = detail;
  } else {
    log(`database: DATABASE_URL (${redact(databaseUrl)})`);
  }
  await runMigrations(databaseUrl);
  if (stopping) return;

  const { providerSimPort, portalPort } = config.devServers;
  const apiUrl = `http://${config.api.host}:${config.api.port}`;
  const simUrl = `http://127.0.0.1:${providerSimPort}`;
  const portalUrl = `http://127.0.0.1:${portalPort}`;
  const schedulerUrl = `http://${config.scheduler.host}:${config.scheduler.port}`;
  const env = { ...supervised, DATABASE_URL: databaseUrl, PROVIDER_SIM_URL: simUrl };
  const servers = [
    { url: `${apiUrl}/ready`, process: startProcess('api', process.execPath, node('apps/api/src/main.ts'), env) },
    { url: `${schedulerUrl}/health`, process: startProcess('scheduler', process.execPath, node('apps/scheduler/src/main.ts'), env) },
    {
      url: `${simUrl}/health`,
      process: startProcess('provider-sim', process.execPath, node('apps/provider-sim/src/main.ts'), {
        ...env,
        PORT: String(providerSimPort),
        SIM_SECRET_KEYS: simulatorSecretKeys(config, simUrl),
        // The gateway's provider-webhook endpoint (POST /api/provider/webhooks), where callbacks are verified.
        SIM_WEBHOOK_URL: `${config.api.publicBaseUrl}/api/provider/webhooks`,
      }),
    },
    { url: `${portalUrl}/`, process: startProcess('portal', process.execPath, node('tools/start/portal.ts'), { ...env, PORTAL_PORT: String(portalPort), API_URL: apiUrl }) },
  ];
  started.push(...servers.map((s) => s.process));
  for (const p of [...started, ...(database ? [database] : [])]) {
    p.child.once('exit', (code, signal) => {
      if (stopping) return;
      log(`${p.name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    });
  }

  try {
    await Promise.all(servers.map((s) => waitForHttp(s.url, 90_000, () => isRunning(s.process))));
  } catch (error) {
    log(`start-up failed: ${(error as Error).message}`);
    return shutdown(1);
  }
  // Each server has said where it listens; this is the one line that says all of them answer.
  log(`The gateway is running: API ${apiUrl}/api/v1 (docs /api/docs), portal ${portalUrl}. Press Ctrl-C to stop.`);
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

void main().catch(async (error: unknown) => {
  if (stopping) return; // a signal arrived during start-up: shutdown() reports and exits
  process.stderr.write(`start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  if (database && isRunning(database)) await stopAll([database], 20_000);
  process.exit(1);
});
