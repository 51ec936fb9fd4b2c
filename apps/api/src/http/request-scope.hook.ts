import { runInRequestScope } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

/**
 * Enters the request scope (libs/platform tenancy/request-scope.ts) for every request, so what a
 * request causes — its ledger postings, its events — can record the request's id (`req_…`, the
 * X-Request-Id header) without every service signature carrying it. Register it before any other
 * hook: everything after `done` (the other hooks, body parsing, guards, interceptors, the handler
 * and whatever they start) runs inside the scope.
 */
export function registerRequestScope(fastify: FastifyInstance): void {
  // Callback style, like the other per-request hooks: an async hook costs a promise and a microtask hop.
  fastify.addHook('onRequest', (request, _reply, done) => runInRequestScope(request.id, done));
}
