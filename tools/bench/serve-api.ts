import 'reflect-metadata';
import { createApiApp } from '@gateway/api';
import { loadConfig } from '@gateway/platform';

/**
 * The real API, configured from the environment, in a process of its own (started by a benchmark
 * with bench-processes' startChild): listens on 127.0.0.1:BENCH_LISTEN_PORT (0, the default: any
 * free port), prints `READY <port>`, and closes on SIGTERM.
 */
async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApiApp({ config, databaseUrl: config.database.url as string });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_LISTEN_PORT ?? 0) });
  process.stdout.write(`READY ${(app.getHttpServer().address() as { port: number }).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void serveApi().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
