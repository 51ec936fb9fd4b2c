import { GatewayConnectionError } from './errors.js';
import { type RetryPolicy, retryDelayMs, retryingFetch } from './retrying-fetch.js';

const POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 5_000, timeoutMs: 5_000 };
const URL = 'http://gateway.test/api/v1/payments/initialize';

interface Seen {
  method: string;
  idempotencyKey: string | null;
  body: string;
}

/** A fake server answering with `answers` in turn (a function throws like a dropped connection); records what it was sent. */
function fakeServer(answers: Array<Response | (() => Response | Promise<Response>)>) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({ method: request.method, idempotencyKey: request.headers.get('idempotency-key'), body: await request.text() });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    return typeof answer === 'function' ? answer() : answer.clone();
  };
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const ok = () => json(200, { success: true, data: {} });
const post = (body: unknown = { amount: 5000, email: 'ada@example.com' }, headers: Record<string, string> = {}) =>
  new Request(URL, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
const dropped = () => Promise.reject(new TypeError('fetch failed'));

/** Records the waits instead of waiting them. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('retryingFetch', () => {
  it.each([429, 500, 502, 503, 504])('retries a %i with the same idempotency key, and resends the same body', async (status) => {
    const server = fakeServer([json(status, { success: false, code: 'x', message: 'x' }), json(status, { success: false, code: 'x', message: 'x' }), ok()]);
    const { sleep } = recordingSleep();
    const response = await retryingFetch(server.fetch, POLICY, sleep)(post());
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(3);
    expect(server.seen[0].idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(server.seen.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(new Set(server.seen.map((s) => s.body))).toEqual(new Set([JSON.stringify({ amount: 5000, email: 'ada@example.com' })]));
  });

  it('gives each call its own idempotency key', async () => {
    const server = fakeServer([ok()]);
    const send = retryingFetch(server.fetch, POLICY, recordingSleep().sleep);
    await send(post());
    await send(post());
    expect(server.seen[0].idempotencyKey).not.toBe(server.seen[1].idempotencyKey);
  });

  it('keeps a key the caller gave (either header), and reuses a body idempotency_key rather than sending two', async () => {
    const server = fakeServer([ok()]);
    const send = retryingFetch(server.fetch, POLICY, recordingSleep().sleep);
    await send(post(undefined, { 'Idempotency-Key': 'order-1042' }));
    await send(post(undefined, { 'X-Idempotency-Key': 'order-1043' }));
    await send(post({ amount: 5000, email: 'ada@example.com', idempotency_key: 'order-1044' }));
    expect(server.seen.map((s) => s.idempotencyKey)).toEqual(['order-1042', null, 'order-1044']);
  });

  it('adds no idempotency key to a GET, and retries it too', async () => {
    const server = fakeServer([json(503, {}), ok()]);
    const response = await retryingFetch(server.fetch, POLICY, recordingSleep().sleep)(new Request('http://gateway.test/api/v1/payments'));
    expect(response.status).toBe(200);
    expect(server.seen.map((s) => [s.method, s.idempotencyKey])).toEqual([
      ['GET', null],
      ['GET', null],
    ]);
  });

  it('waits at least Retry-After before retrying a 429', async () => {
    const server = fakeServer([json(429, { success: false, code: 'rate_limit_exceeded', message: 'slow down', retry_after: 2 }, { 'retry-after': '2' }), ok()]);
    const { waits, sleep } = recordingSleep();
    await retryingFetch(server.fetch, POLICY, sleep, () => 0)(post());
    expect(waits).toEqual([2_000]);
  });

  it('returns the 429 at once when Retry-After asks for longer than it ever waits', async () => {
    const server = fakeServer([json(429, { success: false, code: 'rate_limit_exceeded', message: 'slow down', retry_after: 60 }, { 'retry-after': '60' }), ok()]);
    const { waits, sleep } = recordingSleep();
    const response = await retryingFetch(server.fetch, POLICY, sleep)(post());
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ retry_after: 60 });
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('stops after maxRetries and hands back the last answer', async () => {
    const server = fakeServer([json(503, { success: false, code: 'service_unavailable', message: 'down' })]);
    const { waits, sleep } = recordingSleep();
    const response = await retryingFetch(server.fetch, { ...POLICY, maxRetries: 2 }, sleep, () => 1)(post());
    expect(response.status).toBe(503);
    expect(server.seen).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it.each([
    [400, 'validation_error'],
    [401, 'authentication_failed'],
    [404, 'payment_not_found'],
    [409, 'invalid_state'],
    [422, 'idempotency_key_reused'],
  ])('never retries a %i %s: the same request would get the same answer', async (status, code) => {
    const server = fakeServer([json(status, { success: false, code, message: 'no' }), ok()]);
    const response = await retryingFetch(server.fetch, POLICY, recordingSleep().sleep)(post());
    expect(response.status).toBe(status);
    expect(server.seen).toHaveLength(1);
  });

  it('retries a 409 idempotency_key_in_progress: the first attempt is still running on the server', async () => {
    const server = fakeServer([json(409, { success: false, code: 'idempotency_key_in_progress', message: 'wait' }), json(201, { success: true, data: { reference: 'PAY-1' } })]);
    const response = await retryingFetch(server.fetch, POLICY, recordingSleep().sleep)(post());
    expect(response.status).toBe(201);
    expect(server.seen[0].idempotencyKey).toBe(server.seen[1].idempotencyKey);
  });

  it('retries a dropped connection with the same key, and gives up with a GatewayConnectionError naming the cause', async () => {
    const recovered = fakeServer([dropped, dropped, ok]);
    expect((await retryingFetch(recovered.fetch, POLICY, recordingSleep().sleep)(post())).status).toBe(200);
    expect(new Set(recovered.seen.map((s) => s.idempotencyKey)).size).toBe(1);

    const down = fakeServer([dropped]);
    const failure = retryingFetch(down.fetch, { ...POLICY, maxRetries: 1 }, recordingSleep().sleep)(post());
    await expect(failure).rejects.toBeInstanceOf(GatewayConnectionError);
    await expect(failure).rejects.toMatchObject({ message: expect.stringContaining('the connection failed (2 attempts)'), cause: expect.any(TypeError) });
    expect(down.seen).toHaveLength(2);
  });

  it('abandons an attempt that gets no answer within timeoutMs and retries it', async () => {
    let attempts = 0;
    const hangsOnce = async (request: Request) => {
      attempts += 1;
      if (attempts > 1) return ok();
      // A server that never answers: only the attempt's abort signal ends it.
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    };
    const response = await retryingFetch(hangsOnce, { ...POLICY, timeoutMs: 50 }, recordingSleep().sleep)(post());
    expect(response.status).toBe(200);
    expect(attempts).toBe(2);
  });

  it('does not retry once the caller aborted', async () => {
    const controller = new AbortController();
    const server = fakeServer([
      () => {
        controller.abort();
        return Promise.reject(new DOMException('aborted', 'AbortError'));
      },
      ok,
    ]);
    const request = new Request(URL, { method: 'POST', body: '{}', signal: controller.signal });
    await expect(retryingFetch(server.fetch, POLICY, recordingSleep().sleep)(request)).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(1);
  });
});

describe('retryDelayMs', () => {
  const policy = { baseDelayMs: 500, maxDelayMs: 8_000 };

  it('doubles per attempt up to the cap, half of it random (equal jitter)', () => {
    expect([0, 1, 2, 3, 4, 5].map((a) => retryDelayMs(a, null, policy, () => 1))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    expect([0, 1, 2, 3, 4, 5].map((a) => retryDelayMs(a, null, policy, () => 0))).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000]);
  });

  it('never retries sooner than Retry-After, in seconds or as an HTTP date', () => {
    expect(retryDelayMs(0, '3', policy, () => 0)).toBe(3_000);
    expect(retryDelayMs(4, '1', policy, () => 1)).toBe(8_000);
    const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
    expect(retryDelayMs(0, inFiveSeconds, policy, () => 0)).toBeGreaterThan(3_000);
    expect(retryDelayMs(0, 'soon', policy, () => 0)).toBe(250);
  });

  it('is undefined when Retry-After is beyond the cap', () => {
    expect(retryDelayMs(0, '9', policy)).toBeUndefined();
  });
});
