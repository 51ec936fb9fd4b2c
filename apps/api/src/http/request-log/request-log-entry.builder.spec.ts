import type { FastifyRequest } from 'fastify';
import { buildRequestLogEntry, merchantApiPath } from './request-log-entry.builder';

const SECRET_KEY = 'sk_test_0123456789abcdef0123456789abcdef';

function fakeRequest(overrides: Record<string, unknown> = {}): FastifyRequest {
  return {
    id: 'req_abc',
    method: 'POST',
    url: '/api/v1/customers?api_key=leaked',
    ip: '10.0.0.9',
    clientIp: '203.0.113.5',
    is404: false,
    routeOptions: { url: '/api/v1/customers' },
    headers: { authorization: `Bearer ${SECRET_KEY}`, cookie: 'session=abc', 'user-agent': 'shop/2.1' },
    rawBody: '{"email":"a@example.com"}',
    principal: { developerId: 'dev-1', mode: 'live', keyId: 'key-1', kind: 'secret', scopes: [], allowlist: [] },
    ...overrides,
  } as unknown as FastifyRequest;
}

const base = {
  path: '/api/v1/customers',
  now: new Date('2030-01-01T00:00:01.000Z'),
  durationMs: 250,
  statusCode: 201,
  responsePayload: '{"success":true}',
  responseContentType: 'application/json; charset=utf-8',
};

describe('merchantApiPath', () => {
  it.each([
    ['/api/v1/customers', '/api/v1/customers'],
    ['/api/v1/customers/?limit=5&cursor=x', '/api/v1/customers/'],
    ['/api/v1', '/api/v1'],
    ['/api/v1?x=1', '/api/v1'],
    ['/api/v1/does-not-exist', '/api/v1/does-not-exist'],
  ])('logs %s as %s', (url, path) => {
    expect(merchantApiPath(url)).toBe(path);
  });

  it.each([['/health'], ['/ready'], ['/api/docs'], ['/api/docs.json'], ['/api/v10/x'], ['/api/v1x'], ['/portal/api/v1/x']])('does not log %s', (url) => {
    expect(merchantApiPath(url)).toBeNull();
  });
});

describe('buildRequestLogEntry', () => {
  it('takes the developer, key and mode from the principal and dates the request from its arrival', () => {
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base })).toEqual({
      requestId: 'req_abc',
      createdAt: new Date('2030-01-01T00:00:00.750Z'),
      durationMs: 250,
      developerId: 'dev-1',
      apiKeyId: 'key-1',
      mode: 'live',
      method: 'POST',
      path: '/api/v1/customers',
      route: '/api/v1/customers',
      statusCode: 201,
      requestBody: '{"email":"a@example.com"}',
      responseBody: '{"success":true}',
      clientIp: '203.0.113.5',
      userAgent: 'shop/2.1',
    });
  });

  it('never carries the Authorization header, cookies or the query string', () => {
    const text = JSON.stringify(buildRequestLogEntry({ request: fakeRequest(), ...base }));
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain('session=abc');
    expect(text).not.toContain('leaked');
  });

  it('logs an unauthenticated, unrouted request with no developer, key, mode or route', () => {
    const entry = buildRequestLogEntry({ request: fakeRequest({ principal: undefined, is404: true, routeOptions: { url: undefined } }), ...base, statusCode: 404 });
    expect(entry).toMatchObject({ developerId: null, apiKeyId: null, mode: null, route: null, statusCode: 404 });
  });

  it('falls back to the socket address when no client IP was resolved, and to null without a user agent', () => {
    const entry = buildRequestLogEntry({ request: fakeRequest({ clientIp: undefined, headers: {} }), ...base });
    expect(entry.clientIp).toBe('10.0.0.9');
    expect(entry.userAgent).toBeNull();
  });

  it('keeps a JSON response given as bytes or with a +json type, and no other response', () => {
    const bytes = Buffer.from('{"a":1}');
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base, responsePayload: bytes }).responseBody).toBe(bytes);
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base, responseContentType: 'application/problem+json' }).responseBody).toBe('{"success":true}');
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base, responseContentType: 'text/html' }).responseBody).toBeNull();
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base, responseContentType: null }).responseBody).toBeNull();
    expect(buildRequestLogEntry({ request: fakeRequest(), ...base, responsePayload: { pipe: () => undefined } }).responseBody).toBeNull();
  });

  it('has no request body when none was parsed as JSON', () => {
    expect(buildRequestLogEntry({ request: fakeRequest({ rawBody: undefined }), ...base }).requestBody).toBeNull();
  });
});
