import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

const CARD_CANARY = '5061990000000000451';
const CVV_CANARY = '918273';
const PASSWORD_CANARY = 'pw-canary-Zx81q';
const SECRET_CANARY = 'whsec-canary-Qp27'; // under a key that merely contains "secret"

interface StoredRow {
  request_id: string;
  developer_id: string | null;
  api_key_id: string | null;
  mode: string | null;
  method: string;
  path: string;
  route: string | null;
  status_code: number;
  duration_ms: number;
  request_body: unknown;
  response_body: unknown;
  client_ip: string | null;
  user_agent: string | null;
  /** The whole row as text: what a leak check must search. */
  raw: string;
}

async function storedRows(requestIds: string[]): Promise<StoredRow[]> {
  return query<StoredRow>('SELECT r.*, row_to_json(r)::text AS raw FROM request_logs r WHERE request_id = ANY($1)', [requestIds]);
}

/** The row of one request, once the writer has flushed it (every 50 ms in these tests; a loaded machine gets 15 s). */
async function storedRow(requestId: string): Promise<StoredRow> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [row] = await storedRows([requestId]);
    if (row) return row;
    if (Date.now() > deadline) throw new Error(`request ${requestId} was not logged`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function requestIdOf(res: { headers: Headers }): string {
  const id = res.headers.get('x-request-id');
  if (!id) throw new Error('response without X-Request-Id');
  return id;
}

describe('request logs', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  beforeAll(async () => {
    gateway = await startGateway({ REQUEST_LOG_FLUSH_INTERVAL_MS: '50' });
    merchant = await createMerchant(gateway);
  });
  afterAll(() => gateway.close());

  it('stores a request with its developer, key, mode, route, status, client, and the id sent as X-Request-Id', async () => {
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', {
      token: merchant.key,
      body: { email: `logged-${randomBytes(4).toString('hex')}@example.com`, name: 'Logged' },
      headers: { 'user-agent': 'request-log-e2e/1.0' },
    });
    expect(res.status).toBe(201);
    const row = await storedRow(requestIdOf(res));
    expect(row).toMatchObject({
      request_id: requestIdOf(res),
      developer_id: merchant.developerId,
      api_key_id: merchant.keyId,
      mode: 'test',
      method: 'POST',
      path: '/api/v1/customers',
      route: '/api/v1/customers',
      status_code: 201,
      client_ip: '127.0.0.1',
      user_agent: 'request-log-e2e/1.0',
      request_body: { email: expect.stringMatching(/^logged-/), name: 'Logged' },
      response_body: res.body,
    });
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('redacts card number, CVV and password deep in the request body, and in the response that echoes them', async () => {
    const metadata = {
      order: { payment: { card: { card_number: CARD_CANARY, CVV: CVV_CANARY, brand: 'verve' } } },
      users: [{ name: 'ops', Password: PASSWORD_CANARY }, { name: 'hook', signingSecret: SECRET_CANARY }],
    };
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', {
      token: merchant.key,
      body: { email: `canary-${randomBytes(4).toString('hex')}@example.com`, metadata },
    });
    expect(res.status).toBe(201);
    // The API itself returns the merchant's metadata as given: only the stored copy is redacted.
    expect(res.text).toContain(CARD_CANARY);

    const row = await storedRow(requestIdOf(res));
    const redactedMetadata = {
      order: { payment: { card: { card_number: '[REDACTED]', CVV: '[REDACTED]', brand: 'verve' } } },
      users: [{ name: 'ops', Password: '[REDACTED]' }, { name: 'hook', signingSecret: '[REDACTED]' }],
    };
    expect(row.request_body).toMatchObject({ metadata: redactedMetadata });
    expect(row.response_body).toMatchObject({ success: true, data: { metadata: redactedMetadata } });
    for (const canary of [CARD_CANARY, CVV_CANARY, PASSWORD_CANARY, SECRET_CANARY]) {
      expect(row.raw).not.toContain(canary);
    }
  });

  it('masks a card number after a line break or a tab, and one written as a number', async () => {
    // In the JSON text the card follows the letter of `\n` or `\t`; 4.084084084084081e15 has no digits in a
    // row, yet PostgreSQL would store it as 4084084084084081; a 19-digit card as a number holds more
    // digits than the API reads (5061990000000000454 reads as 5061990000000000000). Each body alone.
    const card = '4084084084084081';
    const longCard = '5061990000000000454';
    const bodies = [
      { metadata: `{"note":"line one\\n${card}","tabbed":"\\t${card}"}`, stored: { note: 'line one\n[REDACTED]', tabbed: '\t[REDACTED]' } },
      { metadata: '{"pan":4.084084084084081e15}', stored: { pan: '[REDACTED]' } },
      { metadata: `{"long_pan":${longCard}}`, stored: { long_pan: 5061990000000000000 } },
    ];
    for (const { metadata, stored } of bodies) {
      const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', {
        token: merchant.key,
        rawBody: `{"email":"escaped-${randomBytes(4).toString('hex')}@example.com","metadata":${metadata}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(201);
      const row = await storedRow(requestIdOf(res));
      expect(row.request_body).toMatchObject({ metadata: stored });
      expect(row.response_body).toMatchObject({ data: { metadata: stored } });
      for (const secret of [card, longCard]) expect(row.raw).not.toContain(secret);
    }
  });

  it("keeps a sub-account's bank account number and a new webhook endpoint's signing secret out of the log", async () => {
    const accountNumber = '0987654321';
    const subaccount = await http(gateway.baseUrl, 'POST', '/api/v1/subaccounts/', {
      token: merchant.key,
      body: { business_name: 'Logged Vendor', bank_code: '058', account_number: accountNumber, metadata: { payout: { bank_account_number: accountNumber } } },
    });
    expect(subaccount.status).toBe(201);
    const subaccountRow = await storedRow(requestIdOf(subaccount));
    expect(subaccountRow.request_body).toMatchObject({ account_number: '[REDACTED]', metadata: { payout: { bank_account_number: '[REDACTED]' } } });
    expect(subaccountRow.raw).not.toContain(accountNumber);

    const webhook = await http(gateway.baseUrl, 'POST', '/api/v1/webhooks/', {
      token: merchant.key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.success'], webhook_version: 'v2' },
    });
    expect(webhook.status).toBe(201);
    const secret = webhook.body.data.secret as string;
    expect(secret.length).toBeGreaterThan(16);
    const webhookRow = await storedRow(requestIdOf(webhook));
    expect(webhookRow.response_body).toMatchObject({ data: { secret: '[REDACTED]' } });
    expect(webhookRow.raw).not.toContain(secret);
  });

  it('logs a 401 for a bad key without the Authorization header or the key anywhere in the row', async () => {
    const badKey = `sk_test_${randomBytes(24).toString('hex')}`;
    const res = await http(gateway.baseUrl, 'GET', `/api/v1/customers?api_key=${badKey}`, { token: badKey });
    expect(res.status).toBe(401);
    const row = await storedRow(requestIdOf(res));
    expect(row).toMatchObject({ status_code: 401, developer_id: null, api_key_id: null, mode: null, path: '/api/v1/customers', request_body: null });
    expect(row.response_body).toEqual(res.body);
    expect(row.raw).not.toContain(badKey);
    expect(row.raw).not.toContain(badKey.slice(8));
    expect(row.raw).not.toContain('Bearer sk_test_');
  });

  it('masks a secret key sent in the URL path', async () => {
    const res = await http(gateway.baseUrl, 'GET', `/api/v1/customers/${merchant.key}`);
    expect(res.status).toBe(401);
    const row = await storedRow(requestIdOf(res));
    expect(row.path).toBe('/api/v1/customers/[REDACTED]');
    expect(row.raw).not.toContain(merchant.key.slice(8));
  });

  it('masks a card number the client percent-encoded in the URL path', async () => {
    // A card number typed with spaces where a customer reference belongs, encoded by the client.
    const res = await http(gateway.baseUrl, 'GET', `/api/v1/customers/${encodeURIComponent('4084 0840 8408 4081')}`, { token: merchant.key });
    expect(res.status).toBe(404);
    const row = await storedRow(requestIdOf(res));
    expect(row.path).toBe('/api/v1/customers/[REDACTED]');
    expect(row.raw).not.toMatch(/4084(%20| )0840/);
  });

  it('logs a 404 for an unknown route, with no route pattern', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/no-such-thing/42', { token: merchant.key });
    expect(res.status).toBe(404);
    const row = await storedRow(requestIdOf(res));
    expect(row).toMatchObject({ status_code: 404, path: '/api/v1/no-such-thing/42', route: null, response_body: res.body });
  });

  it('logs a 404 for a missing object with the developer and the route pattern', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/customers/CUS_0000000000000000', { token: merchant.key });
    expect(res.status).toBe(404);
    const row = await storedRow(requestIdOf(res));
    expect(row).toMatchObject({ status_code: 404, developer_id: merchant.developerId, route: '/api/v1/customers/:ref', response_body: { code: 'customer_not_found' } });
  });

  it('logs a 403 for a key without the scope, with the developer', async () => {
    const readOnly = await merchant.issueKey({ scopes: ['customers:read'] });
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: readOnly.key, body: { email: 'scope@example.com', password: PASSWORD_CANARY } });
    expect(res.status).toBe(403);
    const row = await storedRow(requestIdOf(res));
    expect(row).toMatchObject({ status_code: 403, developer_id: merchant.developerId, api_key_id: readOnly.keyId, request_body: { password: '[REDACTED]' } });
    expect(row.raw).not.toContain(PASSWORD_CANARY);
  });

  it('logs a body over 1 MiB (413) and malformed JSON (400) without storing either body', async () => {
    const huge = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, rawBody: JSON.stringify({ note: 'x'.repeat(1024 * 1024) }) });
    expect(huge.status).toBe(413);
    const malformed = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, rawBody: `{"password": "${PASSWORD_CANARY}",` });
    expect(malformed.status).toBe(400);
    expect(await storedRow(requestIdOf(huge))).toMatchObject({ status_code: 413, request_body: null, response_body: { code: 'payload_too_large' } });
    const row = await storedRow(requestIdOf(malformed));
    expect(row).toMatchObject({ status_code: 400, request_body: null, response_body: { code: 'invalid_json' } });
    expect(row.raw).not.toContain(PASSWORD_CANARY);
  });

  it('stores a large JSON body as a truncation marker', async () => {
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', {
      token: merchant.key,
      body: { email: 'big@example.com', metadata: { note: 'y'.repeat(100_000), password: PASSWORD_CANARY } },
    });
    const row = await storedRow(requestIdOf(res));
    expect(row.request_body).toEqual({ truncated: true, size_bytes: expect.any(Number) });
    expect(row.raw).not.toContain(PASSWORD_CANARY);
  });

  it('stores the path without its query string', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/customers/?limit=5&email=someone@example.com', { token: merchant.key });
    expect(res.status).toBe(200);
    const row = await storedRow(requestIdOf(res));
    expect(row.path).toBe('/api/v1/customers/');
    expect(row.raw).not.toContain('someone@example.com');
  });

  it('does not log requests outside the merchant API (health, docs)', async () => {
    const health = await http(gateway.baseUrl, 'GET', '/health');
    const docs = await http(gateway.baseUrl, 'GET', '/api/docs.json');
    const marker = await http(gateway.baseUrl, 'GET', '/api/v1/after-health', {});
    await storedRow(requestIdOf(marker)); // everything recorded before it has been flushed too
    expect(await storedRows([requestIdOf(health), requestIdOf(docs)])).toEqual([]);
  });

  it('logs a request whose client goes away before it is answered, as status 499', async () => {
    const socket = connect(Number(new URL(gateway.baseUrl).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const marker = `abandoned-${randomBytes(4).toString('hex')}`;
    // The server has parsed the request's head (it has begun) before the client hangs up.
    const begun = new Promise<void>((resolve) => {
      const server = gateway.app.getHttpServer();
      const seen = (request: { url?: string }) => {
        if (!request.url?.includes(marker)) return;
        server.off('request', seen);
        resolve();
      };
      server.on('request', seen);
    });
    // Promise 100 body bytes, send 10, hang up.
    socket.write(`POST /api/v1/customers?${marker} HTTP/1.1\r\nHost: x\r\nUser-Agent: ${marker}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`);
    await begun;
    socket.destroy();
    const deadline = Date.now() + 15_000;
    let rows: StoredRow[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await query<StoredRow>("SELECT r.*, '' AS raw FROM request_logs r WHERE user_agent = $1", [marker]);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status_code: 499, path: '/api/v1/customers', response_body: null });
  });
});

describe('request logs at shutdown and under refusals', () => {
  it('writes the entry of every request answered, 429s included, when the API closes right after them', async () => {
    // No timer flush and no batch fills up during the test: only the shutdown can write these.
    const gateway = await startGateway({ REQUEST_LOG_FLUSH_INTERVAL_MS: '60000', REQUEST_LOG_BATCH_SIZE: '2000', RATE_LIMIT_TEST_PER_SECOND: '3' });
    const merchant = await createMerchant(gateway);
    const requests = [
      ...Array.from({ length: 12 }, () => http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: merchant.key })),
      ...Array.from({ length: 5 }, () => http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: 'sk_test_wrong' })),
      ...Array.from({ length: 5 }, (_, i) => http(gateway.baseUrl, 'GET', `/api/v1/unknown/${i}`)),
    ];
    const responses = await Promise.all(requests);
    await gateway.close();

    const statuses = new Set(responses.map((r) => r.status));
    expect(statuses).toEqual(new Set([200, 429, 401, 404]));
    const ids = responses.map(requestIdOf);
    const rows = await storedRows(ids);
    expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    for (const res of responses) {
      expect(rows.find((r) => r.request_id === requestIdOf(res))?.status_code).toBe(res.status);
    }
  });

  it('also writes the entries of requests still in flight when the close begins', async () => {
    const gateway = await startGateway({ REQUEST_LOG_FLUSH_INTERVAL_MS: '60000', REQUEST_LOG_BATCH_SIZE: '2000' });
    const merchant = await createMerchant(gateway);
    const port = Number(new URL(gateway.baseUrl).port);
    const server = gateway.app.getHttpServer();
    const received = new Promise<void>((resolve) => {
      let count = 0;
      server.on('request', () => ++count === 3 && resolve());
    });
    // Each request has sent its headers but only half of its body when the close begins.
    const clients = await Promise.all(Array.from({ length: 3 }, () => startSlowRequest(port, merchant.key)));
    await received;
    const closing = gateway.close();
    // The close has reached the HTTP server (it accepts no new connection) while these are in flight.
    for (const deadline = Date.now() + 10_000; server.listening; ) {
      if (Date.now() > deadline) throw new Error('the server never began to close');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = await Promise.all(clients.map((client) => client.finish()));
    await closing;

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const ids = answers.map((a) => a.requestId);
    expect((await storedRows(ids)).map((r) => r.request_id).sort()).toEqual([...ids].sort());
  });
});

/** A POST over a raw socket whose body is sent in two halves, the second when finish() is called. */
async function startSlowRequest(port: number, key: string): Promise<{ finish(): Promise<{ status: number; requestId: string }> }> {
  const body = JSON.stringify({ email: `in-flight-${randomBytes(4).toString('hex')}@example.com` });
  const half = Math.floor(body.length / 2);
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    async finish() {
      socket.write(body.slice(half));
      await ended;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
      const requestId = /^x-request-id: (\S+)/im.exec(response)?.[1] ?? '';
      return { status, requestId };
    },
  };
}
