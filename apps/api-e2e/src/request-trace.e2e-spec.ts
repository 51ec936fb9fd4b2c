import { ApiKeysService } from '@gateway/domain/api-keys';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http, type HttpResult } from './support/http';
import { buyer, initializePayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type PortalAccount, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';
import { waitFor } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- traces are asserted field by field
type Trace = any;

function requestIdOf(res: HttpResult): string {
  const id = res.headers.get('x-request-id');
  if (!id) throw new Error('response without X-Request-Id');
  return id;
}

/**
 * A request's trace (GET /api/v1/requests/{request_id} and the portal's): the API in-process with
 * its provider simulator, the real scheduler app delivering webhooks to a receiver on loopback.
 */
describe('request traces', () => {
  const env = {
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '1',
    WEBHOOK_TIMEOUT_MS: '3000',
    REQUEST_LOG_FLUSH_INTERVAL_MS: '50',
  };
  let h: PaymentsHarness;
  let scheduler: SchedulerProcess;
  let receiver: WebhookReceiver;
  let receiverUrl: string;
  let account: PortalAccount;
  let otherAccount: PortalAccount;
  /** Secret keys of the account (both modes) and of another account. */
  let key: string;
  let keyId: string;
  let liveKey: string;
  let otherKey: string;

  beforeAll(async () => {
    h = await startPaymentsHarness(env, { ownDatabase: true });
    // The gateway learns of the payment from the verify alone, so the verify is what credits it.
    h.sim.setWebhookUrl(undefined);
    scheduler = await startScheduler(schedulerEnvFor(h, env));
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
    const admin = (await signedInPlatformUser(h.gateway)).client;
    account = await provisionAccount(h.gateway, admin, { identityVerified: true });
    otherAccount = await provisionAccount(h.gateway, admin);
    const keys = h.gateway.app.get(ApiKeysService, { strict: false });
    const issue = async (developerId: string, mode: 'test' | 'live') => (await keys.issue({ developerId, mode, kind: 'secret' })).secret;
    const issued = await keys.issue({ developerId: account.developerId, mode: 'test', kind: 'secret' });
    [key, keyId] = [issued.secret, issued.key.id];
    liveKey = await issue(account.developerId, 'live');
    otherKey = await issue(otherAccount.developerId, 'test');
  });
  afterAll(async () => {
    await scheduler?.stop();
    await receiver?.close();
    await h?.close();
  });

  const api = (method: string, path: string, body?: unknown, token = key) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token, body });
  const traceOf = (requestId: string, token = key) => api('GET', `/requests/${requestId}`, undefined, token);
  /** Polls the trace until `done` holds for it (the request log is written in batches, attempts when made). */
  const traceWhen = async (requestId: string, done: (trace: Trace) => boolean, what: string): Promise<Trace> => {
    let last: HttpResult | undefined;
    await waitFor(async () => {
      last = await traceOf(requestId);
      return last.status === 200 && done(last.body.data);
    }, { what: `${what} (last answer: ${last?.status} ${last?.text.slice(0, 300)})`, timeoutMs: 30_000 });
    return (last as HttpResult).body.data;
  };

  /** A payment initialized and paid at the provider, not yet known to the gateway as paid. */
  const paidAtProvider = async (amount: number): Promise<string> => {
    const init = await initializePayment(h.gateway, { key }, { amount, email: buyer() });
    expect(init.status).toBe(201);
    const reference = init.body.data.reference as string;
    const paid = await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: { card: '4084084084084081' } });
    expect(paid.status).toBeLessThan(300);
    return reference;
  };

  let verify: { requestId: string; reference: string; eventId: string; trace: Trace };

  it('shows what a verify did: its log entry, the ledger entries it posted, payment.success and each delivery attempt', async () => {
    const hook = (await api('POST', '/webhooks/', { url: receiverUrl, events: ['payment.success'], webhook_version: 'v2' })).body.data;
    // The receiver refuses the first attempt, so the delivery has two: a failure, then the retry.
    receiver.respond = (_hook, index) => (index === 0 ? 500 : 200);
    const reference = await paidAtProvider(2500);

    const verified = await api('POST', '/payments/verify', { reference });
    expect([verified.status, verified.body.data.status]).toEqual([200, 'success']);
    const requestId = requestIdOf(verified);
    await receiver.waitFor(2, 20_000);
    const eventId = String(receiver.received[0].headers['x-gateway-event-id']);

    const trace = await traceWhen(
      requestId,
      (t) => t.request !== null && t.events[0]?.deliveries[0]?.attempts.length === 2 && t.events[0].deliveries[0].status === 'delivered',
      'the verify logged and its delivery made twice',
    );
    expect(trace.request).toMatchObject({
      request_id: requestId,
      method: 'POST',
      path: '/api/v1/payments/verify',
      status_code: 200,
      mode: 'test',
      api_key_id: keyId,
      request_body: { reference },
      response_body: { success: true, data: { reference, status: 'success' } },
    });

    // Exactly the entries of this payment: nothing else posted for its reference.
    const ledger = (await api('GET', `/wallet/ledger?reference=${reference}&limit=100`)).body.data as Array<{ id: string }>;
    expect(ledger.length).toBeGreaterThan(0);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...trace.ledger_entries].sort(byId)).toEqual([...ledger].sort(byId));
    expect(trace.ledger_entries).toContainEqual(expect.objectContaining({ type: 'credit', direction: 'credit', reference, currency: 'NGN' }));

    expect(trace.events).toEqual([
      {
        id: eventId,
        event: 'payment.success',
        created_at: expect.any(String),
        deliveries: [
          {
            webhook_id: hook.id,
            url: hook.url,
            status: 'delivered',
            attempts: [
              { log_id: expect.stringMatching(/^whl_/), attempt: 1, trigger: 'automatic', success: false, status_code: 500, latency_ms: expect.any(Number), error: 'http_status', created_at: expect.any(String) },
              { log_id: expect.stringMatching(/^whl_/), attempt: 2, trigger: 'automatic', success: true, status_code: 200, latency_ms: expect.any(Number), error: null, created_at: expect.any(String) },
            ],
          },
        ],
      },
    ]);
    expect(trace.events_truncated).toBe(false);
    // The attempts are the endpoint's delivery log's own rows.
    const logs = (await api('GET', `/webhooks/${hook.id}/logs/`)).body.data as Array<{ log_id: string; event_id: string }>;
    for (const attempt of trace.events[0].deliveries[0].attempts) expect(logs).toContainEqual(expect.objectContaining({ log_id: attempt.log_id, event_id: eventId }));
    verify = { requestId, reference, eventId, trace };
  });

  it("shows what the service did on the request's behalf under a context made from a row: a sandbox dispute's hold and its loss", async () => {
    const paid = await api('POST', `/sandbox/payments/${(await initializePayment(h.gateway, { key }, { amount: 30_000, email: buyer() })).body.data.reference}/complete`, { outcome: 'success' });
    expect([paid.status, paid.body.data.status]).toEqual([200, 'success']);
    const reference = paid.body.data.reference as string;

    // The dispute is recorded as the provider's notice would be: from the payment's row, in this request.
    const opened = await api('POST', `/sandbox/payments/${reference}/dispute`);
    expect(opened.status).toBe(201);
    const openedTrace = await traceWhen(requestIdOf(opened), (t) => t.request !== null, 'the dispute logged');
    expect(openedTrace.events.map((e: Trace) => e.event)).toEqual(['dispute.created']);
    expect(openedTrace.ledger_entries.length).toBeGreaterThan(0);
    expect(openedTrace.ledger_entries).toContainEqual(expect.objectContaining({ reference: opened.body.data.reference }));

    const lost = await api('POST', `/sandbox/disputes/${opened.body.data.reference}/resolve`, { outcome: 'lost' });
    expect([lost.status, lost.body.data.status]).toEqual([200, 'lost']);
    const lostTrace = await traceWhen(requestIdOf(lost), (t) => t.request !== null, 'the decision logged');
    expect(lostTrace.events.map((e: Trace) => e.event)).toEqual(['dispute.lost']);
    // Each request shows its own entries only.
    const ids = (t: Trace) => t.ledger_entries.map((e: Trace) => e.id);
    expect(ids(lostTrace).filter((id: string) => ids(openedTrace).includes(id))).toEqual([]);
  });

  it('shows a request that changed nothing with no ledger entries and no events', async () => {
    const read = await api('GET', `/payments/${verify.reference}`);
    expect(read.status).toBe(200);
    const trace = await traceWhen(requestIdOf(read), (t) => t.request !== null, 'the read logged');
    expect(trace).toEqual({
      request: expect.objectContaining({ method: 'GET', path: `/api/v1/payments/${verify.reference}`, status_code: 200 }),
      ledger_entries: [],
      events: [],
      events_truncated: false,
    });

    // A refused request is traced too: what the merchant sent, and that it did nothing.
    const refused = await api('POST', '/payments/verify', { reference: 'no-such-payment' });
    expect(refused.status).toBe(404);
    const refusedTrace = await traceWhen(requestIdOf(refused), (t) => t.request !== null, 'the refused verify logged');
    expect(refusedTrace).toMatchObject({ request: { status_code: 404, response_body: { code: 'payment_not_found' } }, ledger_entries: [], events: [] });
  });

  it("is not found with another account's key or the other mode's, as an unknown id is", async () => {
    for (const token of [otherKey, liveKey]) {
      const res = await traceOf(verify.requestId, token);
      expect([res.status, res.body.code]).toEqual([404, 'request_not_found']);
    }
    const unknown = await traceOf(`req_${randomBytes(16).toString('hex')}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'request_not_found']);
  });

  it('refuses what is not a request id with validation_error', async () => {
    for (const id of ['not-a-request-id', `req_${'A'.repeat(32)}`, `req_${'0'.repeat(31)}`, `${verify.requestId}0`, `pay_${'0'.repeat(32)}`]) {
      const res = await traceOf(encodeURIComponent(id));
      expect([id, res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([id, 400, 'validation_error', ['request_id']]);
    }
  });

  it('needs the requests:read scope', async () => {
    const keys = h.gateway.app.get(ApiKeysService, { strict: false });
    const scoped = async (scopes: Array<'payments:read' | 'requests:read'>) => (await keys.issue({ developerId: account.developerId, mode: 'test', kind: 'secret', scopes })).secret;
    const refused = await traceOf(verify.requestId, await scoped(['payments:read']));
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await traceOf(verify.requestId, await scoped(['requests:read']))).status).toBe(200);
  });

  it("traces what a portal session's own request changed: its test event, with request null (only /api/v1 requests are logged)", async () => {
    const created = await account.owner.post('/api/portal/webhooks', { body: { url: receiverUrl, events: ['payment.success'], webhook_version: 'v1' } });
    expect(created.status).toBe(201);
    const sent = await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: created.body.data.id } });
    expect(sent.status).toBeLessThan(300);
    const trace = await account.owner.get(`/api/portal/requests/${requestIdOf(sent)}`);
    expect(trace.status).toBe(200);
    expect(trace.body.data).toMatchObject({ request: null, ledger_entries: [], events: [{ id: sent.body.data.event_id, event: 'webhook.test' }] });
    // The merchant API sees the same trace in the same mode.
    expect((await traceOf(requestIdOf(sent))).body.data.events).toEqual(trace.body.data.events);
  });

  it('keeps the ledger entries and events once the log entry is gone (purged, or not yet written): request is null', async () => {
    await h.gateway.app.get(DataSource).query(`DELETE FROM request_logs WHERE request_id = $1`, [verify.requestId]);
    const res = await traceOf(verify.requestId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...verify.trace, request: null });
  });

  it("gives the portal's session the same trace in its mode, and another account's session none", async () => {
    const mine = await account.owner.get(`/api/portal/requests/${verify.requestId}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({ ...verify.trace, request: null });
    const theirs = await otherAccount.owner.get(`/api/portal/requests/${verify.requestId}`);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'request_not_found']);
    const malformed = await account.owner.get('/api/portal/requests/req_nope');
    expect([malformed.status, malformed.body.code]).toEqual([400, 'validation_error']);
  });
});
