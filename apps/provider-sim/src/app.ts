import Fastify, { type FastifyInstance } from 'fastify';
import type { SimulatorContext } from './context';
import { ApiError } from './errors';
import { bearerAuth } from './http/auth';
import { failure, ok } from './http/envelope';
import { registerFaultInjection } from './http/fault-injection';
import { registerIdempotencyKeys } from './http/idempotency';
import { registerCheckoutRoutes } from './routes/checkout';
import { registerCustomerRoutes } from './routes/customers';
import { registerDisputeRoutes } from './routes/disputes';
import { registerPreauthorizationRoutes } from './routes/preauthorization';
import { registerRefundRoutes } from './routes/refunds';
import { registerSimulatorRoutes } from './routes/sim';
import { registerTransactionRoutes } from './routes/transactions';
import { registerTransferRoutes } from './routes/transfers';

/**
 * Wires the Fastify app. Three encapsulated areas, each with only the hooks it needs:
 * - the Paystack API: bearer auth → fault injection (knobs) → Idempotency-Key;
 * - /sim controls: bearer auth only (knobs never break the controls that set them);
 * - /checkout: public pages keyed by access code, with a form-body parser.
 */
export function buildApp(ctx: SimulatorContext, log: (line: string) => void): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Close keep-alive and in-flight sockets on close(): a test run must never hang on the simulator.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
  });

  // Same JSON parsing as Fastify's (with prototype-poisoning protection), but an
  // empty body counts as "no fields" — many clients send content-type on bodiless POSTs.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (String(body).trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, String(body), done);
  });

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(failure(error.message));
    const statusCode = (error as { statusCode?: unknown }).statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send(failure(error instanceof Error ? error.message : 'Bad request'));
    }
    log(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return reply.code(500).send(failure('Internal simulator error'));
  });

  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send(failure('Route not found')));

  app.get('/health', async () => ok('Provider simulator is running', null));

  void app.register(async (api) => {
    api.addHook('onRequest', bearerAuth(ctx));
    registerFaultInjection(api, ctx);
    registerIdempotencyKeys(api);
    registerTransactionRoutes(api, ctx);
    registerPreauthorizationRoutes(api, ctx);
    registerRefundRoutes(api, ctx);
    registerTransferRoutes(api, ctx);
    registerCustomerRoutes(api, ctx);
    registerDisputeRoutes(api, ctx);
  });

  void app.register(async (sim) => {
    sim.addHook('onRequest', bearerAuth(ctx));
    registerSimulatorRoutes(sim, ctx);
  });

  void app.register(async (checkout) => {
    registerCheckoutRoutes(checkout, ctx);
  });

  return app;
}
