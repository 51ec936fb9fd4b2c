import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { failure } from './envelope';
import { accountOf } from './auth';

/**
 * `Idempotency-Key` support for POST routes (a simulator extension — Paystack
 * makes payments idempotent through references only). The first response to
 * a key is stored per account and route; repeating the key with the same
 * request returns that response unchanged (marked `idempotent-replayed: true`),
 * with a different request it is refused. 5xx answers are not stored, so the
 * key stays usable for a retry.
 */
export function registerIdempotencyKeys(app: FastifyInstance): void {
  const pending = new WeakMap<FastifyRequest, { scopedKey: string; requestFingerprint: string }>();

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    // Paystack ignores the header, and /refund takes no reference either: a second call is a
    // second refund there, so here too (clients must reconcile with List Refunds first).
    if (request.method !== 'POST' || key === undefined || request.routeOptions.url === '/refund') return undefined;
    if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
      reply.code(400).send(failure('Idempotency-Key must be a single value of 1 to 255 characters', 400));
      return reply;
    }
    const store = accountOf(request).idempotency;
    const scopedKey = `${request.routeOptions.url ?? request.url}\n${key}`;
    const requestFingerprint = createHash('sha256')
      .update(JSON.stringify({ params: request.params ?? null, body: request.body ?? null }))
      .digest('hex');

    if (store.isInFlight(scopedKey)) {
      reply.code(409).send(failure('A request with this Idempotency-Key is still being processed', 409));
      return reply;
    }
    const stored = store.find(scopedKey);
    if (stored) {
      if (stored.requestFingerprint !== requestFingerprint) {
        reply.code(422).send(failure('Idempotency-Key was already used with a different request', 422));
        return reply;
      }
      reply
        .code(stored.statusCode)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(stored.body);
      return reply;
    }
    store.begin(scopedKey);
    pending.set(request, { scopedKey, requestFingerprint });
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request);
    if (!entry) return payload;
    pending.delete(request);
    const store = accountOf(request).idempotency;
    if (reply.statusCode < 500 && typeof payload === 'string') {
      store.complete(entry.scopedKey, {
        requestFingerprint: entry.requestFingerprint,
        statusCode: reply.statusCode,
        body: payload,
      });
    } else {
      store.abandon(entry.scopedKey);
    }
    return payload;
  });

  // A request that never reached onSend (client went away mid-handler) must not block its key forever.
  app.addHook('onResponse', async (request) => {
    const entry = pending.get(request);
    if (entry) accountOf(request).idempotency.abandon(entry.scopedKey);
  });
}
