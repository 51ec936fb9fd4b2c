import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
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
import { registerUploadRoutes } from './routes/uploads';

/**
 * Wires the Fastify app. Four encapsulated areas, each with only the hooks it needs:
 * - the Paystack API: bearer auth → fault injection (knobs) → Idempotency-Key;
 * - /sim controls: bearer auth only (knobs never break the controls that set them);
 * - /checkout: public pages keyed by access code, with a form-body parser;
 * - /uploads: dispute evidence files, PUT to the "signed" URL /dispute/:id/upload_url hands out.
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
  const jsonBody = (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
    if (String(body).trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, String(body), done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBody);

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(failure(error.message, error.statusCode, error.details));
    const statusCode = (error as { statusCode?: unknown }).statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send(failure(error instanceof Error ? error.message : 'Bad request', statusCode));
    }
    log(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return reply.code(500).send(failure('Internal simulator error', 500));
  });

  // An unknown route is not an unknown object: `api_error`, so no client mistakes it for "not found".
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send(failure('Route not found', 404, { type: 'api_error', code: 'unknown', nextStep: 'Check the method and path against the API reference' })),
  );

  app.get('/health', async () => ok('Provider simulator is running', null));

  void app.register(async (api) => {
    // Paystack reads a JSON body whatever the content type says, and its own Node SDK sends none.
    api.removeContentTypeParser('text/plain');
    api.addContentTypeParser('*', { parseAs: 'string' }, jsonBody);
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

  void app.register(async (uploads) => {
    registerUploadRoutes(uploads, ctx);
  });

  return app;
}
