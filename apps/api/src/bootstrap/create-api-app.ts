import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { AppModule, type ApiModuleOptions } from '../app.module';
import { registerJsonParser } from '../http/json-body-parser';
import { setupOpenApi } from '../http/openapi';

export const API_PREFIX = 'api/v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the fully configured API application (not yet listening). Used by main and the e2e tests. */
export async function createApiApp(options: ApiModuleOptions & { logger?: false }): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // Every request gets our own unique id; a client-sent X-Request-Id is not trusted.
    genReqId: () => `req_${randomUUID().replace(/-/g, '')}`,
    requestIdHeader: false,
    trustProxy: false,
    logger: false,
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerJsonParser(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: options.logger ?? ['error', 'warn', 'log'],
    bufferLogs: false,
    // Our own JSON parser (registerJsonParser) replaces Nest's.
    bodyParser: false,
  });
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'ready', method: RequestMethod.GET },
    ],
  });
  setupOpenApi(app);
  return app;
}
