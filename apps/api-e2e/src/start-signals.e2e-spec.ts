import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, WORKSPACE_ROOT } from './support/processes';

/**
 * `npm start` as Docker, systemd and scripts stop it: one signal to npm's own pid. Every server
 * (API, scheduler, provider simulator, portal, embedded PostgreSQL) must stop within seconds,
 * leaving no process and no listening port behind. The start-up log is checked on the way.
 */
describe('npm start, stopped by a signal to npm', () => {
  let dataRoot: string;
  let gateway: RunningGateway | undefined;

  beforeAll(() => {
    // One data directory for both runs: the second start reuses the cluster the first created.
    dataRoot = mkdtempSync(join(tmpdir(), 'gateway-start-'));
    chmodSync(dataRoot, 0o755); // reachable by the postgres user when the tests run as root
  });

  afterEach(() => gateway?.forceStop());

  afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s stops every server within seconds and leaves no process or port behind',
    async (signal) => {
      gateway = await startGateway(dataRoot);
      const processes = descendantsOf(gateway.npm.pid as number);
      expect(processes.length).toBeGreaterThanOrEqual(6); // start.ts, the 4 servers, the database's supervisor…

      const signalled = Date.now();
      process.kill(gateway.npm.pid as number, signal);
      const exitedInTime = await Promise.race([gateway.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 30_000).unref())]);

      expect(exitedInTime).toBe(true);
      expect(Date.now() - signalled).toBeLessThan(15_000);
      expect(processes.filter((p) => isAlive(p.pid))).toEqual([]);
      for (const [name, port] of Object.entries(gateway.ports)) {
        expect({ name, port, open: await isListening(port) }).toEqual({ name, port, open: false });
      }
      expectQuietStartLog(gateway);
    },
    240_000,
  );
});

/** At LOG_LEVEL=info: one line per server saying where it listens; no route listings, crontab notices or colour codes. */
function expectQuietStartLog(gateway: RunningGateway): void {
  const log = gateway.output();
  expect(log).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
  expect(log).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader/);
  expect(log).not.toMatch(/crontab/i);
  for (const [server, port] of [
    ['api', gateway.ports.api],
    ['scheduler', gateway.ports.scheduler],
    ['provider-sim', gateway.ports.providerSim],
    ['portal', gateway.ports.portal],
    ['database', gateway.ports.database],
  ] as const) {
    const lines = log.split('\n').filter((l) => l.startsWith(`[${server}]`) && l.includes('listening on'));
    expect({ server, lines: lines.length }).toEqual({ server, lines: 1 });
    expect(lines[0]).toContain(`:${port}`);
  }
}

interface RunningGateway {
  npm: ChildProcess;
  ports: { api: number; scheduler: number; providerSim: number; portal: number; database: number };
  exited: Promise<void>;
  output(): string;
  forceStop(): void;
}

async function startGateway(dataRoot: string): Promise<RunningGateway> {
  const ports = { api: await freePort(), scheduler: await freePort(), providerSim: await freePort(), portal: await freePort(), database: await freePort() };
  const simUrl = `http://127.0.0.1:${ports.providerSim}`;
  const npm = spawn('npm', ['start'], {
    cwd: WORKSPACE_ROOT,
    // Its own process group, so a failed test can still clear everything it started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      API_PORT: String(ports.api),
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.api}`,
      SCHEDULER_PORT: String(ports.scheduler),
      PROVIDER_SIM_PORT: String(ports.providerSim),
      PROVIDER_TEST_BASE_URL: simUrl,
      PROVIDER_LIVE_BASE_URL: simUrl,
      PORTAL_PORT: String(ports.portal),
      EMBEDDED_PG_PORT: String(ports.database),
      EMBEDDED_PG_DIR: join(dataRoot, 'postgres'),
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    },
  });
  let output = '';
  npm.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  npm.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  let everything: ProcessEntry[] = [];
  const gateway: RunningGateway = {
    npm,
    ports,
    exited,
    output: () => output,
    forceStop: () => {
      for (const { pid } of [...everything, ...descendantsOf(npm.pid as number)]) kill(pid);
      kill(-(npm.pid as number));
    },
  };

  const deadline = Date.now() + 180_000;
  while (!output.includes('The gateway is running')) {
    if (npm.exitCode !== null || Date.now() > deadline) {
      gateway.forceStop();
      throw new Error(`npm start did not come up:\n${output}`);
    }
    everything = descendantsOf(npm.pid as number);
    await new Promise((r) => setTimeout(r, 250));
  }
  everything = descendantsOf(npm.pid as number);
  const ready = await fetch(`http://127.0.0.1:${ports.api}/ready`);
  expect(ready.status).toBe(200);
  return gateway;
}

interface ProcessEntry {
  pid: number;
  command: string;
}

/** Every process below `root` (children, grandchildren…), from the process table. */
function descendantsOf(root: number): ProcessEntry[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map(([, pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command }));
  const found: ProcessEntry[] = [];
  const walk = (parent: number) => {
    for (const { pid, ppid, command } of table) {
      if (ppid === parent) {
        found.push({ pid, command });
        walk(pid);
      }
    }
  };
  walk(root);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
