import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ManualClock } from '@gateway/platform';
import { testConfig } from '@gateway/platform/testing';
import { createApiApp } from '@gateway/api';
import { FileLogger } from './file-logger';
import { installResponseValidation, responseValidationEnabled } from './openapi-responses';
import { applicationLogFile } from './test-artifacts';

export interface TestGateway {
  app: NestFastifyApplication;
  baseUrl: string;
  clock: ManualClock;
  close(): Promise<void>;
}

/** Boots the real API app on 127.0.0.1:<random port> against this run's test database. */
export async function startGateway(env: Record<string, string> = {}, host = '127.0.0.1'): Promise<TestGateway> {
  const config = testConfig(env);
  const clock = new ManualClock(new Date());
  const app = await createApiApp({ config, databaseUrl: config.database.url as string, clock, ...(process.env.E2E_LOG ? {} : { logger: false }) });
  // A run that keeps its artifacts keeps the app's log too, for the secrets-at-rest scan (test-artifacts.ts).
  const logFile = process.env.E2E_LOG ? undefined : applicationLogFile(`api-${process.pid}`);
  if (logFile) app.useLogger(new FileLogger(logFile));
  // The e2e config checks every answer against the OpenAPI document (see openapi-responses.ts).
  const validation = responseValidationEnabled() ? installResponseValidation(app) : undefined;
  await app.listen({ host, port: 0 });
  await validation?.loadDocument();
  const address = app.getHttpServer().address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${address.port}`, clock, close: () => app.close() };
}
