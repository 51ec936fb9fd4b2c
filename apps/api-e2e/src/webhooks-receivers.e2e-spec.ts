import { signPayload } from '@gateway/domain/webhooks';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { WORKSPACE_ROOT } from './support/processes';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';

jest.setTimeout(90_000);

const EXAMPLES = join(WORKSPACE_ROOT, 'docs/examples/webhooks');
const RECEIVERS = [
  { name: 'Node (raw body)', command: process.execPath, args: [join(EXAMPLES, 'receiver.js')] },
  { name: 'Python (re-serialised payload)', command: 'python3', args: [join(EXAMPLES, 'receiver.py')] },
];

/**
 * The receivers published in docs/examples/webhooks, run as their own processes exactly as the
 * guide says, against real signed deliveries: the API in-process, the real scheduler app as a
 * child process. A recording relay sits between the gateway and the receiver so each real
 * delivery can then be replayed, tampered with, to the receiver.
 */
describe.each(RECEIVERS)('example receiver: $name', ({ command, args }) => {
  const env = { ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_RETRY_SCHEDULE_SECONDS: '30', WEBHOOK_TIMEOUT_MS: '3000' };
  let gateway: TestGateway;
  let scheduler: SchedulerProcess;
  let merchant: TestMerchant;
  let relay: RecordingRelay;
  let receiver: ExampleReceiver;
  let hook: { id: string; secret: string };

  beforeAll(async () => {
    gateway = await startGateway(env);
    scheduler = await startScheduler({ ...env, DATABASE_URL: process.env.TEST_DATABASE_URL as string });
    merchant = await createMerchant(gateway, { identityVerified: true });
    relay = new RecordingRelay();
    const relayUrl = await relay.start();
    hook = (await api('POST', '/webhooks/', { url: relayUrl, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    receiver = await ExampleReceiver.spawn(command, args, hook.secret);
    relay.target = receiver.port;
  });
  afterAll(async () => {
    await receiver?.stop();
    await scheduler?.stop();
    await relay?.close();
    await gateway?.close();
  });

  const api = (method: string, path: string, body?: unknown) => http(gateway.baseUrl, method, `/api/v1${path}`, { token: merchant.key, body });
  /** customer.created with members that trip naive re-serialisation: non-ASCII, an astral character, quotes, a tiny float. */
  const createCustomer = () => api('POST', '/customers/', { email: `c-${randomBytes(4).toString('hex')}@example.com`, name: 'Zoë “Ẁ” 😀', metadata: { note: 'é "quoted" \\ /', n: 0.00001, big: 1e21, amount: 5000.5 } });
  const logsOf = async (id: string) => (await api('GET', `/webhooks/${id}/logs/`)).body.data as Array<{ event_id: string; success: boolean; status_code: number }>;
  const replay = (delivery: Delivery, body: string, signature = delivery.headers['x-gateway-signature'] as string) =>
    http(`http://127.0.0.1:${receiver.port}`, 'POST', '/', {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-gateway-signature': signature, 'x-gateway-event-id': String(delivery.headers['x-gateway-event-id']) },
    });

  it('accepts a real v1 delivery (logged as delivered, 200) and then a v2 one', async () => {
    await createCustomer();
    const v1 = await relay.waitFor(() => true);
    const v1EventId = JSON.parse(v1.body).id as string;
    await receiver.waitForLine(`accepted ${v1EventId} customer.created`);
    expect(v1.status).toBe(200);
    // The attempt is logged once the receiver's answer is in.
    const logged = await waitUntil(() => logsOf(hook.id), (logs) => logs.length > 0);
    expect(logged).toEqual([expect.objectContaining({ event_id: v1EventId, success: true, status_code: 200 })]);

    expect((await api('PATCH', `/webhooks/${hook.id}/`, { webhook_version: 'v2' })).status).toBe(200);
    await createCustomer();
    const v2 = await relay.waitFor((d) => d !== v1);
    expect(JSON.parse(v2.body)).toMatchObject({ api_version: 'v2', event: 'customer.created', data: { name: 'Zoë “Ẁ” 😀' } });
    await receiver.waitForLine(`accepted ${JSON.parse(v2.body).id} customer.created`);
    expect(v2.status).toBe(200);
  });

  it('answers 403 to a tampered body, a stale timestamp or another secret, and drops a replayed event id', async () => {
    const count = relay.deliveries.length;
    await createCustomer();
    const delivery = await relay.waitFor((d) => relay.deliveries.indexOf(d) >= count);
    expect(delivery.status).toBe(200);
    const tampered = delivery.body.replace(/"email":"[^"]+"/, '"email":"attacker@example.com"');
    expect(tampered).not.toBe(delivery.body);
    expect((await replay(delivery, tampered)).status).toBe(403);
    await receiver.waitForLine(`rejected ${String(delivery.headers['x-gateway-event-id'])}`);

    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await replay(delivery, delivery.body, `t=${stale},v1=${signPayload(hook.secret, stale, delivery.body)}`)).status).toBe(403);
    const now = Math.floor(Date.now() / 1000);
    expect((await replay(delivery, delivery.body, `t=${now},v1=${signPayload(`whsec_${randomBytes(32).toString('base64url')}`, now, delivery.body)}`)).status).toBe(403);
    expect((await replay(delivery, delivery.body, `t=${now}`)).status).toBe(403);
    // Non-ASCII header text (sent as ISO-8859-1 bytes) is refused, not a crash of the comparison.
    const forged = signPayload(hook.secret, now, delivery.body);
    expect((await replay(delivery, delivery.body, `t=${now},v1=é${forged.slice(1)}`)).status).toBe(403);
    expect((await replay(delivery, delivery.body, `t=${now}é,v1=${forged}`)).status).toBe(403);

    // The untouched delivery, replayed: verifies, and is recognised as already handled.
    const again = await replay(delivery, delivery.body);
    expect(again.status).toBe(200);
    expect(again.text).toBe('duplicate');
  });

  it('keeps verifying through a secret rotation (two v1= signatures), and a delivery signed with another endpoint secret is refused and logged as failed', async () => {
    const rotated = await api('PATCH', `/webhooks/${hook.id}/`, { rotate_secret: true });
    expect(rotated.body.data.secret).not.toBe(hook.secret);
    const count = relay.deliveries.length;
    await createCustomer();
    const duringGrace = await relay.waitFor((d) => relay.deliveries.indexOf(d) >= count);
    expect((duringGrace.headers['x-gateway-signature'] as string).match(/v1=/g)).toHaveLength(2);
    expect(duringGrace.status).toBe(200);

    // A second endpoint to the same receiver: its own secret, which the receiver does not hold.
    const stranger = (await api('POST', '/webhooks/', { url: relay.url, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    await createCustomer();
    await relay.waitFor((d) => d.status === 403);
    const logs = await waitUntil(async () => (await logsOf(stranger.id)).filter((l) => l.status_code === 403), (l) => l.length > 0);
    expect(logs[0]).toMatchObject({ success: false, status_code: 403 });
    await receiver.waitForLine(`rejected ${logs[0].event_id}`);
  });
});

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The receiver's answer to the gateway. */
  status: number;
}

/** Records what the gateway sends (raw bytes, headers) and forwards it unchanged to the receiver. */
class RecordingRelay {
  readonly deliveries: Delivery[] = [];
  target = 0;
  url = '';
  private server?: Server;
  private waiters: Array<() => void> = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const forwarded = request({ host: '127.0.0.1', port: this.target, method: 'POST', path: req.url, headers: req.headers, agent: false }, (answer) => {
          const out: Buffer[] = [];
          answer.on('data', (c: Buffer) => out.push(c));
          answer.on('end', () => {
            this.deliveries.push({ headers: req.headers, body: body.toString('utf8'), status: answer.statusCode ?? 0 });
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(out));
            this.waiters.forEach((wake) => wake());
          });
        });
        forwarded.on('error', () => res.writeHead(502).end());
        forwarded.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this.url;
  }

  /** The first recorded delivery matching `match`, waiting for it up to 10 s. */
  waitFor(match: (d: Delivery) => boolean, timeoutMs = 10_000): Promise<Delivery> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.deliveries.find(match);
        if (!found) return false;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => reject(new Error(`no matching delivery among ${this.deliveries.length}`)), timeoutMs);
      if (!check()) this.waiters.push(check);
    });
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** One example receiver as its own process, on a port it picks (PORT=0) and prints. */
class ExampleReceiver {
  private output = '';
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async spawn(command: string, args: string[], secret: string): Promise<ExampleReceiver> {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver did not start: ${output}`)), 15_000);
      const onData = (c: Buffer) => {
        output += c.toString();
        const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
        if (!listening) return;
        clearTimeout(timer);
        resolve(Number(listening[1]));
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`receiver exited (${code}): ${output}`)));
    });
    const receiver = new ExampleReceiver(child, port);
    receiver.output = output;
    child.stdout?.on('data', (c: Buffer) => (receiver.output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (receiver.output += c.toString()));
    return receiver;
  }

  /** Resolves once the receiver printed a line starting with `prefix`. */
  waitForLine(prefix: string, timeoutMs = 10_000): Promise<void> {
    return waitUntil(async () => this.output.split('\n').some((l) => l.startsWith(prefix)), Boolean, timeoutMs).then(
      () => undefined,
      () => Promise.reject(new Error(`receiver never printed "${prefix}"; it printed:\n${this.output}`)),
    );
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
