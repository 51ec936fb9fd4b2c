import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createMerchant, type TestMerchant } from './support/merchants';
import { type PaymentsHarness, startPaymentsHarness } from './support/payments';
import { entryArgs, freePort, runEntry, WORKSPACE_ROOT } from './support/processes';

jest.setTimeout(120_000);

const CLI = 'tools/cli/integrator/main.ts';

/** A process of the test, its output collected as it comes. */
class Running {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (c: Buffer) => (this.stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.stderr += c.toString()));
    this.exited = new Promise((done) => child.on('exit', (code) => done(code)));
  }

  /** The first match of `pattern` in stdout + stderr, waiting for it (or failing with what came). */
  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = `${this.stdout}\n${this.stderr}`.match(pattern);
      if (match) return match;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${pattern} in:\n${this.stdout}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * The sandbox CLI against a real gateway and provider simulator: `listen` (one long-running
 * process) forwards the payment.success that `trigger payment.success` causes to the Python
 * example receiver of docs/examples/webhooks, which verifies the signature the way the spec's
 * reference verifier does (re-serialised with sorted keys) with the secret `listen` printed.
 */
describe('sandbox CLI: listen + trigger', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  const running: Running[] = [];

  beforeAll(async () => {
    h = await startPaymentsHarness();
    merchant = await createMerchant(h.gateway);
  });
  afterAll(async () => {
    for (const each of running) each.child.kill('SIGKILL');
    await h?.close();
  });

  const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, GATEWAY_SECRET_KEY: merchant.key, GATEWAY_API_URL: h.gateway.baseUrl });

  it('forwards a real payment.success, signed with the printed secret, to a local receiver that verifies it', async () => {
    const port = await freePort();
    const listen = new Running(
      spawn(process.execPath, [...entryArgs(CLI), 'listen', '--forward-to', `http://localhost:${port}/webhooks`, '--events', 'payment.success'], {
        cwd: WORKSPACE_ROOT,
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    running.push(listen);
    const [, secret] = await listen.waitFor(/Signing secret for this session: (whsec_[A-Za-z0-9_-]+)/);
    await listen.waitFor(/Press Ctrl-C to stop/);

    const receiver = new Running(
      spawn('python3', [join(WORKSPACE_ROOT, 'docs/examples/webhooks/receiver.py')], { env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    running.push(receiver);
    await receiver.waitFor(/listening on/);

    const triggered = await runEntry(CLI, ['trigger', 'payment.success', '--json'], env());
    expect([triggered.code, triggered.stderr]).toEqual([0, expect.stringContaining('/sandbox/payments/')]);
    const { event, created } = JSON.parse(triggered.stdout) as { event: string; created: { payment: string } };
    expect(event).toBe('payment.success');

    const [, eventId] = await receiver.waitFor(/accepted (evt_[0-9a-f]+) payment\.success/);
    await listen.waitFor(new RegExp(`payment\\.success\\s+${eventId}  → 200 \\(\\d+ ms\\)`));
    // The event is the triggered payment's (only payment.success was forwarded: not its customer.created).
    const [stored] = await h.gateway.app.get(DataSource).query(`SELECT developer_id, name, data->>'reference' AS reference FROM events WHERE id = $1`, [eventId]);
    expect(stored).toEqual({ developer_id: merchant.developerId, name: 'payment.success', reference: created.payment });
    expect(receiver.stdout).not.toMatch(/rejected/);
    expect(listen.stdout).not.toMatch(/customer\.created/);

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(listen.stderr).toMatch(/Stopped\./);
  });
});
