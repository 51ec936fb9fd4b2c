import type { CallHandler } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyService, IdempotentRequest } from '@gateway/domain/idempotency';
import type { DeveloperContext } from '@gateway/platform';
import { lastValueFrom, of } from 'rxjs';
import type { ApiKeyPrincipal } from '../auth/principal';
import { Authenticated, Public } from '../auth/authenticated.decorator';
import { IdempotencyBodyKey } from './idempotency-body-key.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

// Routes shaped like real ones, only to carry the decorators' metadata.
class ExampleController {
  @Authenticated({ scope: 'payments:write' })
  @IdempotencyBodyKey('idempotency_key')
  initialize(): string {
    return 'initialize';
  }

  @Authenticated({ scope: 'customers:write' })
  create(): string {
    return 'create';
  }

  @Public()
  publicHook(): string {
    return 'publicHook';
  }
}

const principal: ApiKeyPrincipal = { developerId: 'dev-1', mode: 'test', keyId: 'key-1', kind: 'secret', scopes: [], allowlist: [] };
const CLAIM: IdempotencyClaim = { ctx: { developerId: 'dev-1', mode: 'test' }, id: 'row-1', token: 'token-1' };

class FakeIdempotencyService {
  readonly claims: Array<{ ctx: DeveloperContext; request: IdempotentRequest }> = [];
  outcome: ClaimOutcome = { kind: 'claimed', claim: CLAIM };

  claim(ctx: DeveloperContext, request: IdempotentRequest): Promise<ClaimOutcome> {
    this.claims.push({ ctx, request });
    return Promise.resolve(this.outcome);
  }
}

function httpCall(handler: keyof ExampleController, request: Record<string, unknown>) {
  const reply = {
    statusCode: 201,
    headers: {} as Record<string, string>,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    header(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
      return this;
    },
  };
  const fullRequest = { method: 'POST', headers: {}, body: {}, params: {}, query: {}, url: '/api/v1/payments/initialize', routeOptions: { url: '/api/v1/payments/initialize' }, principal, ...request };
  const context = new ExecutionContextHost([fullRequest, reply]);
  context.setType('http');
  Object.assign(context, { getHandler: () => ExampleController.prototype[handler], getClass: () => ExampleController });
  return { context, reply, request: fullRequest };
}

describe('IdempotencyInterceptor', () => {
  let service: FakeIdempotencyService;
  let interceptor: IdempotencyInterceptor;
  let handled: number;
  const next: CallHandler = {
    handle: () => {
      handled += 1;
      return of({ success: true, data: { fresh: true } });
    },
  };

  beforeEach(() => {
    service = new FakeIdempotencyService();
    interceptor = new IdempotencyInterceptor(new Reflector(), service as unknown as IdempotencyService);
    handled = 0;
  });

  it('claims a body key on a route that declared @IdempotencyBodyKey, scoped to the route pattern', async () => {
    const { context, request } = httpCall('initialize', { body: { amount: 5000, idempotency_key: 'init-1' } });
    await lastValueFrom(await interceptor.intercept(context, next));
    expect(service.claims).toEqual([
      { ctx: { developerId: 'dev-1', mode: 'test' }, request: { method: 'POST', route: '/api/v1/payments/initialize', key: 'init-1', requestHash: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    ]);
    expect(handled).toBe(1);
    expect((request as { idempotencyClaim?: unknown }).idempotencyClaim).toBe(CLAIM);
  });

  it('fingerprints the request without the body key, so moving the key to the header is the same request', async () => {
    await lastValueFrom(await interceptor.intercept(httpCall('initialize', { body: { amount: 5000, idempotency_key: 'k' } }).context, next));
    await lastValueFrom(await interceptor.intercept(httpCall('initialize', { headers: { 'idempotency-key': 'k' }, body: { amount: 5000 } }).context, next));
    await lastValueFrom(await interceptor.intercept(httpCall('initialize', { headers: { 'idempotency-key': 'k' }, body: { amount: 6000 } }).context, next));
    const [fromBody, fromHeader, otherAmount] = service.claims.map((c) => c.request.requestHash);
    expect(fromHeader).toBe(fromBody);
    expect(otherAmount).not.toBe(fromBody);
  });

  it('ignores the body field on a route that did not declare it', async () => {
    const { context } = httpCall('create', { body: { email: 'a@example.com', idempotency_key: 'not-a-key-here' } });
    await lastValueFrom(await interceptor.intercept(context, next));
    expect(service.claims).toEqual([]);
    expect(handled).toBe(1);
  });

  it('tells apart requests to different concrete paths of the same route pattern', async () => {
    const route = { routeOptions: { url: '/api/v1/customers/:ref' }, headers: { 'idempotency-key': 'k' } };
    await lastValueFrom(await interceptor.intercept(httpCall('create', { ...route, params: { ref: 'CUS_a' } }).context, next));
    await lastValueFrom(await interceptor.intercept(httpCall('create', { ...route, params: { ref: 'CUS_b' } }).context, next));
    expect(service.claims[0].request.route).toBe('/api/v1/customers/:ref');
    expect(service.claims[0].request.requestHash).not.toBe(service.claims[1].request.requestHash);
  });

  it('replays the stored answer without running the handler or the envelope interceptor', async () => {
    const body = '{"success":false,"code":"customer_exists","message":"Taken."}';
    service.outcome = { kind: 'replay', response: { status: 409, body } };
    const { context, reply } = httpCall('create', { headers: { 'idempotency-key': 'k' } });
    expect(await lastValueFrom(await interceptor.intercept(context, next))).toBe(body);
    expect(handled).toBe(0);
    expect(reply.statusCode).toBe(409);
    expect(reply.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' });
  });

  it.each([
    ['a GET request', 'create' as const, { method: 'GET' }],
    ['a public route', 'publicHook' as const, {}],
    ['a request without an API key principal', 'create' as const, { principal: undefined }],
  ])('leaves %s alone even with a key', async (_label, handler, overrides) => {
    const { context } = httpCall(handler, { headers: { 'idempotency-key': 'k' }, ...overrides });
    await lastValueFrom(await interceptor.intercept(context, next));
    expect(service.claims).toEqual([]);
    expect(handled).toBe(1);
  });

  it('refuses two different keys before claiming anything', async () => {
    const { context } = httpCall('create', { headers: { 'idempotency-key': 'a', 'x-idempotency-key': 'b' } });
    await expect(interceptor.intercept(context, next)).rejects.toMatchObject({ code: 'validation_error' });
    expect(service.claims).toEqual([]);
    expect(handled).toBe(0);
  });
});
