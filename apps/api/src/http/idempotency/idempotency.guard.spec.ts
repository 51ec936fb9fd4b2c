import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyService, IdempotentRequest } from '@gateway/domain/idempotency';
import type { DeveloperContext } from '@gateway/platform';
import type { FastifyReply } from 'fastify';
import type { ApiKeyPrincipal } from '../auth/principal';
import { Authenticated, Public } from '../auth/authenticated.decorator';
import { NoStore } from '../no-store.decorator';
import { IdempotencyBodyKey } from './idempotency-body-key.decorator';
import { IdempotencyGuard, IdempotentReplay } from './idempotency.guard';

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

  @Authenticated({ scope: 'webhooks:manage' })
  @NoStore()
  createEndpoint(): string {
    return 'createEndpoint';
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
    sent: undefined as unknown,
    send(payload: unknown) {
      this.sent = payload;
      return this;
    },
  };
  const fullRequest = { method: 'POST', headers: {}, body: {}, params: {}, query: {}, url: '/api/v1/payments/initialize', routeOptions: { url: '/api/v1/payments/initialize' }, principal, ...request };
  const context = new ExecutionContextHost([fullRequest, reply]);
  context.setType('http');
  Object.assign(context, { getHandler: () => ExampleController.prototype[handler], getClass: () => ExampleController });
  return { context, reply, request: fullRequest };
}

describe('IdempotencyGuard', () => {
  let service: FakeIdempotencyService;
  let guard: IdempotencyGuard;

  beforeEach(() => {
    service = new FakeIdempotencyService();
    guard = new IdempotencyGuard(new Reflector(), service as unknown as IdempotencyService);
  });

  it('claims a body key on a route that declared @IdempotencyBodyKey, scoped to the route pattern', async () => {
    const { context, request } = httpCall('initialize', { body: { amount: 5000, idempotency_key: 'init-1' } });
    expect(await guard.canActivate(context)).toBe(true);
    expect(service.claims).toEqual([
      { ctx: { developerId: 'dev-1', mode: 'test' }, request: { method: 'POST', route: '/api/v1/payments/initialize', key: 'init-1', requestHash: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    ]);
    expect((request as { idempotencyClaim?: unknown }).idempotencyClaim).toBe(CLAIM);
  });

  it('fingerprints the request without the body key, so moving the key to the header is the same request', async () => {
    await guard.canActivate(httpCall('initialize', { body: { amount: 5000, idempotency_key: 'k' } }).context);
    await guard.canActivate(httpCall('initialize', { headers: { 'idempotency-key': 'k' }, body: { amount: 5000 } }).context);
    await guard.canActivate(httpCall('initialize', { headers: { 'idempotency-key': 'k' }, body: { amount: 6000 } }).context);
    const [fromBody, fromHeader, otherAmount] = service.claims.map((c) => c.request.requestHash);
    expect(fromHeader).toBe(fromBody);
    expect(otherAmount).not.toBe(fromBody);
  });

  it('ignores the body field on a route that did not declare it', async () => {
    const { context } = httpCall('create', { body: { email: 'a@example.com', idempotency_key: 'not-a-key-here' } });
    await guard.canActivate(context);
    expect(service.claims).toEqual([]);
  });

  it('tells apart requests to different concrete paths of the same route pattern', async () => {
    const route = { routeOptions: { url: '/api/v1/customers/:ref' }, headers: { 'idempotency-key': 'k' } };
    await guard.canActivate(httpCall('create', { ...route, params: { ref: 'CUS_a' } }).context);
    await guard.canActivate(httpCall('create', { ...route, params: { ref: 'CUS_b' } }).context);
    expect(service.claims[0].request.route).toBe('/api/v1/customers/:ref');
    expect(service.claims[0].request.requestHash).not.toBe(service.claims[1].request.requestHash);
  });

  it('stops the request with the stored answer, sent as is with the replay marker', async () => {
    const body = '{"success":false,"code":"customer_exists","message":"Taken."}';
    service.outcome = { kind: 'replay', response: { status: 409, body } };
    const { context, reply } = httpCall('create', { headers: { 'idempotency-key': 'k' } });
    const replay = await Promise.resolve(guard.canActivate(context)).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(IdempotentReplay);
    (replay as IdempotentReplay).send(reply as unknown as FastifyReply);
    expect(reply.statusCode).toBe(409);
    expect(reply.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' });
    expect(reply.sent).toBe(body);
  });

  it("replays with the headers the route sets on every answer (a secret's Cache-Control: no-store)", async () => {
    service.outcome = { kind: 'replay', response: { status: 201, body: '{"success":true,"data":{"secret":"whsec_x"}}' } };
    const { context, reply } = httpCall('createEndpoint', { headers: { 'idempotency-key': 'k' } });
    const replay = await Promise.resolve(guard.canActivate(context)).catch((error: unknown) => error);
    (replay as IdempotentReplay).send(reply as unknown as FastifyReply);
    expect(reply.statusCode).toBe(201);
    expect(reply.headers).toEqual({ 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' });
  });

  it.each([
    ['a GET request', 'create' as const, { method: 'GET' }],
    ['a public route', 'publicHook' as const, {}],
    ['a request without an API key principal', 'create' as const, { principal: undefined }],
  ])('leaves %s alone even with a key', async (_label, handler, overrides) => {
    const { context } = httpCall(handler, { headers: { 'idempotency-key': 'k' }, ...overrides });
    expect(await guard.canActivate(context)).toBe(true);
    expect(service.claims).toEqual([]);
  });

  it('refuses two different keys before claiming anything', async () => {
    const { context } = httpCall('create', { headers: { 'idempotency-key': 'a', 'x-idempotency-key': 'b' } });
    expect(() => guard.canActivate(context)).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(service.claims).toEqual([]);
  });
});
