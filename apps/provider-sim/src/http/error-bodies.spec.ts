import { startHarness, TEST_SECRET, uniqueReference, type Harness } from '../../test/harness';

/**
 * Paystack's error body — `{status: false, message, meta: {nextStep}, type, code}` (API reference,
 * "Errors"; PaystackOSS/openapi `components/schemas/Error`) — on every refusal, so that clients
 * can act on `type` / `code` and never on the message; 401 stays `{status, message}` as documented.
 */
describe('error bodies and request parsing', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());
  afterEach(() => harness.sim.setKnobs({ failNext: 0, failStatus: 500 }));

  const raw = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_SECRET}`, ...init.headers } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('a missing field: 400 validation_error / missing_params with meta.nextStep', async () => {
    expect(await raw('/transaction/initialize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 100 }) })).toEqual({
      status: 400,
      body: { status: false, message: 'email is required', meta: { nextStep: 'Provide all required params' }, type: 'validation_error', code: 'missing_params' },
    });
  });

  it('an unknown object: 404 not_found; an unknown route: 404 api_error, never taken for an unknown object', async () => {
    expect(await raw('/transaction/verify/nothing-here')).toMatchObject({ status: 404, body: { status: false, type: 'validation_error', code: 'not_found', meta: { nextStep: expect.any(String) } } });
    expect(await raw('/preauthorization/release_authorization', { method: 'POST' })).toMatchObject({ status: 404, body: { type: 'api_error', code: 'unknown' } });
  });

  it('a refused key: exactly {status, message}, as the API reference documents 401', async () => {
    const response = await fetch(`${harness.baseUrl}/transaction/verify/x`, { headers: { authorization: 'Bearer sk_test_nobody' } });
    expect([response.status, await response.json()]).toEqual([401, { status: false, message: 'Invalid key' }]);
  });

  it('fail_next: api_error / unknown, whatever status it plays', async () => {
    harness.sim.setKnobs({ failNext: 1 });
    expect(await raw('/bank')).toMatchObject({ status: 500, body: { status: false, type: 'api_error', code: 'unknown' } });
    harness.sim.setKnobs({ failNext: 1, failStatus: 429 });
    expect(await raw('/bank')).toMatchObject({ status: 429, body: { type: 'api_error', code: 'unknown' } });
  });

  it('reads a JSON body sent without a content type (as Paystack does, and its Node SDK sends)', async () => {
    for (const contentType of [undefined, 'text/plain']) {
      const reference = uniqueReference('noct');
      // A byte body: fetch adds no content type of its own.
      const body = Buffer.from(JSON.stringify({ email: 'ada@example.com', amount: '5000', reference }));
      const created = await raw('/transaction/initialize', { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
      expect([contentType, created]).toMatchObject([contentType, { status: 200, body: { status: true, data: { reference } } }]);
    }
    expect(await raw('/transaction/initialize', { method: 'POST', body: '{not json' })).toMatchObject({ status: 400, body: { status: false, type: 'validation_error' } });
  });
});
