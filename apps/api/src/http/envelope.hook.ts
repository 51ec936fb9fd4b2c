import type { FastifyInstance } from 'fastify';
import { ListResponse } from './list-response';

/**
 * The one place a success body is shaped: `{success: true, data, meta?}`. A Fastify
 * preSerialization hook rather than a Nest interceptor, because Nest builds an AsyncResource and an
 * rxjs pipeline per request for every interceptor — the largest single cost of a read
 * (docs/benchmarks.md). Fastify calls it only for object payloads: error envelopes, idempotent
 * replays and pages rendered elsewhere are sent as text and pass untouched.
 */
export function registerSuccessEnvelope(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (_request, _reply, payload: unknown, done) => {
    done(null, payload instanceof ListResponse ? { success: true, data: payload.items, meta: payload.meta } : { success: true, data: payload });
  });
}
