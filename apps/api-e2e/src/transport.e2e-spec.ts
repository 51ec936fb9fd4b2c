import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';

describe('HTTP transport: envelopes, request ids, routing and body errors', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it('answers GET /health with the success envelope and a request id', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('reports ready when the database answers and every migration is applied', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ready' } });
  });

  it('gives every response its own request id and ignores one sent by the client', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await http(gateway.baseUrl, 'GET', '/health', { headers: { 'x-request-id': 'client-chosen' } });
      ids.add(res.headers.get('x-request-id') as string);
    }
    expect(ids.size).toBe(5);
    expect(ids.has('client-chosen')).toBe(false);
  });

  it('gives request ids in the order the requests came: the request log appends to its key instead of writing all over it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await http(gateway.baseUrl, 'GET', '/health')).headers.get('x-request-id') as string);
    expect(ids.every((id) => /^req_[0-9a-f]{32}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('answers an unknown route with 404 not_found in the error envelope, with a request id', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: 'not_found', message: expect.any(String) });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it.each(['/health', '/health/', '/ready', '/ready/'])('serves %s with and without the trailing slash', async (path) => {
    const res = await http(gateway.baseUrl, 'GET', path);
    expect(res.status).toBe(200);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/does-not-exist', { rawBody: '{"amount": 1,' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'invalid_json', message: 'The request body is not valid JSON.' });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('refuses JSON that tries prototype poisoning as invalid_json', async () => {
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/does-not-exist', { rawBody: '{"__proto__": {"admin": true}}' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ metadata: 'x'.repeat(1024 * 1024) });
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/does-not-exist', { rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, code: 'payload_too_large', message: expect.stringContaining('1 MiB') });
  });

  it('accepts a body of just under 1 MiB (then routes it: 404 here)', async () => {
    const body = JSON.stringify({ metadata: 'x'.repeat(1024 * 1024 - 100) });
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/does-not-exist', { rawBody: body });
    expect(res.status).toBe(404);
  });

  it('publishes the OpenAPI 3 document and the docs page', async () => {
    const json = await http(gateway.baseUrl, 'GET', '/api/docs.json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(json.body.paths['/health']).toBeDefined();
    const page = await http(gateway.baseUrl, 'GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });
});
