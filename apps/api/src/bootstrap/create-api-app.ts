import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import { GatewayLogger, timeOrderedUuid } from '@gateway/platform';
import { AppModule, type ApiModuleOptions } from '../app.module';
import { parseIp } from '@gateway/domain/api-keys';
import { registerSuccessEnvelope } from '../http/envelope.hook';
import { registerJsonParser } from '../http/json-body-parser';
import { PROVIDER_WEBHOOKS_PATH } from '../modules/provider-webhooks/provider-webhooks.controller';
import { setupOpenApi } from '../http/openapi';
import { registerRequestLogging } from '../http/request-log/request-log.hooks';
import { registerUrlTextCheck } from '../http/url-text.hook';

export const API_PREFIX = 'api/v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the fully configured API application (not yet listening). Used by main and the e2e tests. */
export async function createApiApp(options: ApiModuleOptions & { logger?: false }): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // Every request gets our own unique id; a client-sent X-Request-Id is not trusted. Ordered by
    // time (a version-7 UUID's hex): request_logs' primary key then grows at its right edge, where
    // random ids wrote into random pages of a week's index (ten times the WAL a row, and four times
    // PostgreSQL's time, at 5,000,000 rows: docs/benchmarks.md, "Request ids in time order").
    genReqId: () => `req_${timeOrderedUuid().replace(/-/g, '')}`,
    requestIdHeader: false,
    // X-Forwarded-For counts only when the socket peer is a configured trusted proxy.
    trustProxy: options.config.api.trustedProxies.length ? options.config.api.trustedProxies : false,
    logger: false,
  });
  const fastify = adapter.getInstance();
  // Callback style: an async hook costs a promise and a microtask hop on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    request.clientIp = normalizeIp(request.ip);
    done();
  });
  registerUrlTextCheck(fastify);
  registerJsonParser(fastify, [`/${PROVIDER_WEBHOOKS_PATH}`]);
  registerSuccessEnvelope(fastify);
  // Portal sessions travel in an httpOnly cookie (see modules/portal).
  void fastify.register(fastifyCookie);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: options.logger ?? new GatewayLogger(options.config.logLevel),
    bufferLogs: false,
    abortOnError: false,
    // Our own JSON parser (registerJsonParser) replaces Nest's.
    bodyParser: false,
  });
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'ready', method: RequestMethod.GET },
      // The developer portal's own API (session cookies, not API keys): /api/portal/…
      { path: 'api/portal/{*path}', method: RequestMethod.ALL },
      // Customers' browsers (redirect to the hosted checkout) and the provider's signed callbacks.
      { path: 'checkout/{*path}', method: RequestMethod.GET },
      { path: PROVIDER_WEBHOOKS_PATH, method: RequestMethod.POST },
    ],
  });
  await setupOpenApi(app);
  registerRequestLogging(app);
  return app;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is reported as plain IPv4. */
function normalizeIp(ip: string): string {
  // The common case, a plain dotted IPv4 address from the socket, is already normal.
  if (PLAIN_IPV4.test(ip)) return ip;
  return parseIp(ip)?.toString() ?? ip;
}

const PLAIN_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
