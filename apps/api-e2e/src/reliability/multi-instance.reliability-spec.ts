import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { testRedis } from '@gateway/platform/testing';
import { CARD_FOR_OUTCOME } from '@gateway/provider-sim';
import { DataSource } from 'typeorm';
import { startGateway, type TestGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { type SchedulerProcess, startScheduler } from '../support/scheduler-process';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { timeoutFor, trials } from './trials';

const PAYMENTS = trials(40);
const AMOUNT = 5000;
/** Requests per second a live key may make; the burst sends three times as many at once. */
const LIVE_LIMIT = 8;
const WINDOW_MS = 1000;

// Every instance shares the Redis counters; an unreachable Redis fails the file when REDIS_URL is set.
const redis = testRedis('the multi-instance run (rate limits are shared through Redis)');
const describeWithRedis = redis.available ? describe : describe.skip;

/** What one run produced, in terms that must not depend on how many instances served it. */
interface RunSummary {
  payments: number;
  /** Verify answers: every payment succeeded, whichever instance answered. */
  verifiedSuccess: number;
  /** ledger_postings per payment (kind `success`): each credited once. */
  postingsPerPayment: number[];
  walletAvailable: number;
  /** Times the wallet holds the net of one payment. */
  netsInWallet: number;
  events: Record<string, number>;
  deliveries: number;
  /** Arrivals at the receiver per (event, endpoint), counted by X-Gateway-Event-Id and path. */
  arrivalsPerDelivery: number[];
  /** Attempts recorded with a 2xx per delivery. */
  recordedSuccessesPerDelivery: number[];
  /** A burst of 3 × LIVE_LIMIT requests with one live key inside one window: answers by status. */
  burst: Record<number, number>;
}

/**
 * Several instances behind a load balancer give the results of one: two API instances and two
 * schedulers on one database, a round-robin proxy in front of the APIs, and the same traffic as
 * against one API instance and one scheduler. Asserted in both topologies, and compared:
 *
 * - PAYMENTS payments initialized, paid on the simulator's hosted checkout and verified twice at
 *   once through the proxy (so, with two instances, by both), while the provider's callback
 *   arrives through the proxy too: each payment is credited once (one ledger posting), the
 *   wallet holds exactly PAYMENTS nets, one payment.success and one customer.created each;
 * - those events delivered to two endpoints with every scheduler's job worker running: each
 *   (event, endpoint) arrives once and has exactly one attempt recorded with a 2xx. The contract
 *   is at least once (a worker that dies between the receiver's answer and recording it sends
 *   again); with nobody dying, a second arrival or a second 2xx attempt would be a duplicate
 *   dispatch, which this run must not show;
 * - one live key's limit counted across the instances (Redis): of a burst of 3 × LIVE_LIMIT
 *   requests in one window, exactly LIVE_LIMIT pass.
 */
describeWithRedis('reliability: two API instances and two schedulers behind a load balancer give the results of one', () => {
  const ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
  const shared = {
    ENCRYPTION_KEYS,
    REDIS_URL: redis.url,
    RATE_LIMIT_REDIS_PREFIX: `multi-instance:${randomUUID()}:`,
    RATE_LIMIT_LIVE_PER_SECOND: String(LIVE_LIMIT),
  };
  let h: PaymentsHarness;
  let second: TestGateway | undefined;
  let schedulers: SchedulerProcess[] = [];
  const proxy = new RoundRobinProxy([]);
  let proxyUrl: string;
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  const summaries: Record<string, RunSummary> = {};
  /** `<endpoint path> <event id>` → the pid of the scheduler that sent it (Linux only; empty elsewhere). */
  const senders = new Map<string, number>();

  beforeAll(async () => {
    h = await startPaymentsHarness(shared, { ownDatabase: true });
    proxy.route([h.gateway.baseUrl]);
    proxyUrl = await proxy.start();
    // The provider's callbacks reach the gateway through the load balancer, like every request.
    h.sim.setWebhookUrl(`${proxyUrl}/api/provider/webhooks`);
    receiverUrl = await receiver.start();
    // Which scheduler sent each delivery, found while its connection is still open.
    receiver.respond = (hook) => {
      const pid = senderProcess(hook.remotePort, receiver.port, schedulers.map((s) => s.child.pid as number));
      if (pid !== undefined) senders.set(`${hook.url} ${String(hook.headers['x-gateway-event-id'])}`, pid);
      return 200;
    };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(schedulers.map((s) => s.stop()));
    await second?.close();
    await proxy.close();
    await receiver.close();
    await h?.close();
  }, 120_000);

  async function useTopology(apis: 1 | 2, schedulerCount: 1 | 2): Promise<void> {
    await Promise.all(schedulers.map((s) => s.stop()));
    if (apis === 2) second ??= await startGateway(schedulerEnvFor(h, shared));
    proxy.route(apis === 2 ? [h.gateway.baseUrl, (second as TestGateway).baseUrl] : [h.gateway.baseUrl]);
    schedulers = await Promise.all(Array.from({ length: schedulerCount }, () => startScheduler(schedulerEnvFor(h, { ENCRYPTION_KEYS }))));
  }

  const api = (key: string, method: string, path: string, body?: unknown) => http(proxyUrl, method, `/api/v1${path}`, { token: key, body });
  const query = <T>(sql: string, params: unknown[]): Promise<T[]> => h.gateway.app.get(DataSource).query(sql, params);

  /** The customer's part, as a browser does it: the merchant's link (through the proxy), then the provider's page and its form. */
  async function payOnHostedCheckout(authorizationUrl: string): Promise<void> {
    const link = await fetch(authorizationUrl.replace(/^https?:\/\/[^/]+/, proxyUrl), { redirect: 'manual' });
    if (link.status !== 302) throw new Error(`checkout link answered ${link.status}`);
    const page = link.headers.get('location') as string;
    const opened = await fetch(page);
    await opened.text();
    if (opened.status !== 200) throw new Error(`checkout page answered ${opened.status}`);
    const paid = await fetch(`${page}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card: CARD_FOR_OUTCOME.success.number }),
      redirect: 'manual',
    });
    await paid.text();
    if (paid.status !== 200) throw new Error(`paying on the checkout page answered ${paid.status}`);
  }

  /** One payment, start to end; returns both verify answers. */
  async function payAndVerify(merchant: TestMerchant): Promise<HttpResult[]> {
    const init = await api(merchant.key, 'POST', '/payments/initialize', { amount: AMOUNT, email: buyer() });
    if (init.status !== 201) throw new Error(`initialize: ${init.status} ${init.text}`);
    await payOnHostedCheckout(init.body.data.authorization_url as string);
    const reference = init.body.data.reference as string;
    return Promise.all([api(merchant.key, 'POST', '/payments/verify', { reference }), api(merchant.key, 'POST', '/payments/verify', { reference })]);
  }

  /** 3 × LIVE_LIMIT requests at once with a fresh live key; again (fresh key) if a slow machine spread them over two windows. */
  async function burst(): Promise<Record<number, number>> {
    const merchant = await createMerchant(h.gateway, { mode: 'live', identityVerified: true });
    for (let attempt = 1; ; attempt++) {
      const { key } = await merchant.issueKey({ mode: 'live' });
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 3 * LIVE_LIMIT }, () => api(key, 'GET', '/customers')));
      const elapsed = performance.now() - started;
      const byStatus: Record<number, number> = {};
      for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
      const oneWindow = byStatus[200] === LIVE_LIMIT && byStatus[429] === 2 * LIVE_LIMIT;
      if (oneWindow || elapsed < WINDOW_MS || attempt >= 5) return byStatus;
    }
  }

  async function run(): Promise<RunSummary> {
    const merchant = await createMerchant(h.gateway);
    for (const endpoint of ['a', 'b']) {
      const created = await api(merchant.key, 'POST', '/webhooks', { url: `${receiverUrl}/${endpoint}`, events: ['payment.success', 'customer.created'], webhook_version: 'v1' });
      expect(created.status).toBe(201);
    }

    const verifies = (await Promise.all(Array.from({ length: PAYMENTS }, () => payAndVerify(merchant)))).flat();
    await h.sim.idle();

    const balance = await api(merchant.key, 'GET', '/wallet/balance?currency=NGN');
    const net = verifies[0].body.data.net_amount as number;
    const postings = await query<{ n: number }>(
      `SELECT count(l.id)::int AS n FROM payments p LEFT JOIN ledger_postings l
          ON l.developer_id = p.developer_id AND l.source_type = 'payment' AND l.source_id = p.id::text AND l.kind = 'success'
        WHERE p.developer_id = $1 GROUP BY p.id`,
      [merchant.developerId],
    );
    const events = await query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM events WHERE developer_id = $1 GROUP BY name ORDER BY name`, [merchant.developerId]);
    const eventCount = events.reduce((sum, e) => sum + e.n, 0);

    // Every delivery recorded delivered, and no job left that could still send one.
    await waitFor(
      async () => {
        const [{ pending }] = await query<{ pending: number }>(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE developer_id = $1 AND status <> 'delivered'`, [
          merchant.developerId,
        ]);
        const [{ jobs }] = await query<{ jobs: number }>(`SELECT count(*)::int AS jobs FROM graphile_worker.jobs WHERE task_identifier = 'webhook_delivery'`, []);
        return pending === 0 && jobs === 0;
      },
      { timeoutMs: 120_000, what: 'every webhook delivery to be recorded delivered' },
    );
    const successes = await query<{ n: number }>(
      `SELECT count(l.id) FILTER (WHERE l.success)::int AS n FROM webhook_deliveries d LEFT JOIN webhook_delivery_logs l ON l.delivery_id = d.id
        WHERE d.developer_id = $1 GROUP BY d.id`,
      [merchant.developerId],
    );
    const eventIds = new Set((await query<{ id: string }>(`SELECT id FROM events WHERE developer_id = $1`, [merchant.developerId])).map((e) => e.id));
    const arrivals = new Map<string, number>();
    for (const hook of receiver.received) {
      const eventId = String(hook.headers['x-gateway-event-id']);
      if (!eventIds.has(eventId)) continue;
      const key = `${hook.url} ${eventId}`;
      arrivals.set(key, (arrivals.get(key) ?? 0) + 1);
    }

    return {
      payments: postings.length,
      verifiedSuccess: verifies.filter((v) => v.status === 200 && v.body.data.status === 'success').length,
      postingsPerPayment: [...new Set(postings.map((p) => p.n))],
      walletAvailable: balance.body.data.available_balance,
      netsInWallet: balance.body.data.available_balance / net,
      events: Object.fromEntries(events.map((e) => [e.name, e.n])),
      deliveries: successes.length,
      arrivalsPerDelivery: arrivals.size === 2 * eventCount ? [...new Set(arrivals.values())] : [-arrivals.size],
      recordedSuccessesPerDelivery: [...new Set(successes.map((s) => s.n))],
      burst: await burst(),
    };
  }

  const expected = (): Partial<RunSummary> => ({
    payments: PAYMENTS,
    verifiedSuccess: 2 * PAYMENTS,
    postingsPerPayment: [1],
    netsInWallet: PAYMENTS,
    events: { 'customer.created': PAYMENTS, 'payment.success': PAYMENTS },
    deliveries: 2 * 2 * PAYMENTS,
    arrivalsPerDelivery: [1],
    recordedSuccessesPerDelivery: [1],
    burst: { 200: LIVE_LIMIT, 429: 2 * LIVE_LIMIT },
  });

  it(
    `one API instance, one scheduler: ${PAYMENTS} payments credited once, their events delivered once per endpoint, the limit kept`,
    async () => {
      await useTopology(1, 1);
      summaries.one = await run();
      expect(summaries.one).toMatchObject(expected());
    },
    timeoutFor(PAYMENTS, 5_000),
  );

  it(
    `two API instances and two schedulers behind a round-robin proxy: the same ${PAYMENTS} payments, deliveries and limit`,
    async () => {
      await useTopology(2, 2);
      summaries.two = await run();
      expect(summaries.two).toMatchObject(expected());
      // The proxy really split the traffic: each instance served at least a third of it…
      const [first, other] = proxy.served;
      expect(Math.min(first, other) / (first + other)).toBeGreaterThan(1 / 3);
      // …and both schedulers' job workers sent deliveries (where /proc tells the sending process).
      if (existsSync('/proc/net/tcp')) {
        const pids = new Set(schedulers.map((s) => s.child.pid));
        const sentBy = [...senders.values()].filter((pid) => pids.has(pid));
        expect(new Set(sentBy).size).toBe(2);
      }
    },
    timeoutFor(PAYMENTS, 5_000),
  );

  it('gives the same results as one instance', () => {
    expect(summaries.two).toEqual(summaries.one);
  });
});

/**
 * The process among `pids` that holds the loopback TCP connection from `port` to `serverPort`
 * (Linux: the socket's inode in /proc/net/tcp, then the process whose descriptors include it).
 */
function senderProcess(port: number | undefined, serverPort: number, pids: number[]): number | undefined {
  if (port === undefined || !existsSync('/proc/net/tcp')) return undefined;
  const hex = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`;
  const socket = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(hex(port)) && fields[2]?.endsWith(hex(serverPort)));
  if (!socket) return undefined;
  const link = `socket:[${socket[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === link;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
