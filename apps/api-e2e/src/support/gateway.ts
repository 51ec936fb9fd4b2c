import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ManualClock } from '@gateway/platform';
import { testConfig } from '@gateway/platform/testing';
import { createApiApp } from '@gateway/api';

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
  await app.listen({ host, port: 0 });
  const address = app.getHttpServer().address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${address.port}`, clock, close: () => app.close() };
}
