import { Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { IdempotencyClaim, IdempotencyService, StoredResponse } from '@gateway/domain/idempotency';
import { IdempotencyResponseRecorder, isReplayableStatus } from './idempotency-response.recorder';

describe('isReplayableStatus', () => {
  it.each([200, 201, 204])('stores a %i success', (status) => expect(isReplayableStatus(status)).toBe(true));
  it.each([401, 403, 404, 409, 422])('stores a %i business refusal', (status) => expect(isReplayableStatus(status)).toBe(true));
  it.each([
    [400, 'a validation refusal: the corrected retry must run'],
    [429, 'retry later'],
    [500, 'a failure: the retry must run again'],
    [502, 'a provider failure'],
    [504, 'a provider timeout'],
    [302, 'not a final JSON answer'],
  ])('does not store %i (%s)', (status) => expect(isReplayableStatus(status)).toBe(false));
});

type OnSendHook = (request: object, reply: { statusCode: number }, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => void;

class FakeIdempotencyService {
  readonly completed: Array<{ claim: IdempotencyClaim; response: StoredResponse }> = [];
  readonly released: IdempotencyClaim[] = [];
  failWith: Error | null = null;

  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    if (this.failWith) return Promise.reject(this.failWith);
    this.completed.push({ claim, response });
    return Promise.resolve(true);
  }

  release(claim: IdempotencyClaim): Promise<void> {
    this.released.push(claim);
    return Promise.resolve();
  }
}

describe('IdempotencyResponseRecorder', () => {
  const claim: IdempotencyClaim = { ctx: { developerId: 'dev-1', mode: 'test' }, id: 'row-1', token: 'token-1' };
  let service: FakeIdempotencyService;
  let hook: OnSendHook;

  beforeEach(() => {
    service = new FakeIdempotencyService();
    const fastify = { addHook: (_name: 'onSend', fn: OnSendHook) => (hook = fn) };
    const adapterHost = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
    new IdempotencyResponseRecorder(adapterHost, service as unknown as IdempotencyService).onModuleInit();
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  function send(request: { id?: string; idempotencyClaim?: IdempotencyClaim }, status: number, payload: unknown): Promise<unknown> {
    request.id = 'req_1';
    return new Promise((resolve, reject) => hook(request, { statusCode: status }, payload, (error, sent) => (error ? reject(error) : resolve(sent))));
  }

  it('passes a response without a claim straight through, synchronously', () => {
    let sent: unknown = 'not yet';
    hook({ id: 'req_1' }, { statusCode: 201 }, '{"success":true}', (_error, payload) => (sent = payload));
    expect(sent).toBe('{"success":true}');
    expect(service.completed).toEqual([]);
  });

  it('stores the exact payload text and status of a final answer', async () => {
    const payload = '{"success":false,"code":"customer_exists","message":"Taken."}';
    expect(await send({ idempotencyClaim: claim }, 409, payload)).toBe(payload);
    expect(service.completed).toEqual([{ claim, response: { status: 409, body: payload } }]);
    expect(service.released).toEqual([]);
  });

  it.each([400, 500, 504])('releases the claim of a %i so the retry runs again', async (status) => {
    await send({ idempotencyClaim: claim }, status, '{"success":false}');
    expect(service.released).toEqual([claim]);
    expect(service.completed).toEqual([]);
  });

  it('releases rather than stores a payload that is not text', async () => {
    await send({ idempotencyClaim: claim }, 200, Buffer.from('{}'));
    expect(service.released).toEqual([claim]);
  });

  it('records a claim only once even if the hook runs again for the same request', async () => {
    const request = { idempotencyClaim: claim };
    await send(request, 201, '{}');
    await send(request, 201, '{}');
    expect(service.completed).toHaveLength(1);
  });

  it('still sends the response when storing it fails, and logs why', async () => {
    service.failWith = new Error('connection terminated');
    expect(await send({ idempotencyClaim: claim }, 201, '{"success":true}')).toBe('{"success":true}');
    expect(Logger.prototype.error).toHaveBeenCalledWith('Could not record the idempotent response of request req_1', expect.stringContaining('connection terminated'));
  });
});
