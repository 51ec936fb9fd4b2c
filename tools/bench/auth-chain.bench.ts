import 'reflect-metadata';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createApiApp } from '@gateway/api';
import { ApiKeysService, IpAllowlistService } from '@gateway/domain/api-keys';
import { CustomersModule, CustomersService, toCustomerResponse } from '@gateway/domain/customers';
import { DevelopersService } from '@gateway/domain/developers';
import { type AppConfig, Clock, configuredPool, dataSourceOptions, type DeveloperContext, loadConfig, SystemClock } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { load, loadMeasuringCpu, type LoadResult, medianResult, paced, printTable } from './bench-support';

/**
 * Latency the whole guard + interceptor + logging chain adds to an authenticated GET.
 *
 * Measured, in one run and one process, against one database:
 * - "bare": a Nest + Fastify app with the same adapter options and pool size, whose route calls
 *   the same service and mapper as GET /api/v1/customers/{ref} — no guards, interceptors, pipes,
 *   hooks or request logging;
 * - "full chain": the real API (createApiApp) on GET /api/v1/customers/{ref} with an API key:
 *   per-IP rate limit → API key → IP allowlist (non-empty, so it is really checked) → per-key
 *   rate limit → scope, idempotency and envelope interceptors, X-Request-Id, request logging;
 *   rate limits counted in memory, and — when REDIS_URL is set — once more in Redis.
 *
 * Scenarios are measured one after the other (never concurrently), in BENCH_ROUNDS alternating
 * rounds; each scenario reports its median round. 32 connections (BENCH_CONNECTIONS).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [REDIS_URL=redis://127.0.0.1:6379] npm run bench:auth
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
/** Comma-separated scenario ids to run (bare, memory, redis): for profiling one of them. */
const ONLY = process.env.BENCH_ONLY?.split(',');
// Phase 2, light load: each connection waits a random 0–2× this many ms between requests, so the
// latency measures the work a request costs rather than time queued behind a saturated server.
const MEAN_GAP_MS = Number(process.env.BENCH_MEAN_GAP_MS ?? 40);

let bareContext: DeveloperContext = { developerId: '', mode: 'test' };

@Controller('bare/customers')
class BareCustomersController {
  constructor(private readonly customers: CustomersService) {}
  @Get(':ref')
  async get(@Param('ref') ref: string) {
    return { success: true, data: toCustomerResponse(await this.customers.get(bareContext, ref)) };
  }
}

interface Scenario {
  id: 'bare' | 'memory' | 'redis';
  label: string;
  url: string;
  headers?: Record<string, string>;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_auth', serverUrl);
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    // Never called by this benchmark; production refuses the simulator's well-known values.
    PROVIDER_TEST_SECRET_KEY: 'bench-unused-test',
    PROVIDER_LIVE_SECRET_KEY: 'bench-unused-live',
    // Limits high enough never to refuse, so every request goes the whole way (counting included).
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_IP_PER_SECOND: '1000000',
  };
  const config = loadConfig(env);
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const api = await listening(await createApiApp({ config, databaseUrl, logger: false }), closers);
    const redisApi = process.env.REDIS_URL
      ? await listening(
          await createApiApp({
            config: loadConfig({ ...env, REDIS_URL: process.env.REDIS_URL, RATE_LIMIT_REDIS_PREFIX: `bench:${process.pid}:` }),
            databaseUrl,
            logger: false,
          }),
          closers,
        )
      : null;
    const bare = await listening(await createBareApp(config, databaseUrl), closers);

    const developer = await api.get(DevelopersService, { strict: false }).create({ email: 'bench@example.com', name: 'Bench', emailVerified: true });
    const keys = api.get(ApiKeysService, { strict: false });
    const { secret } = await keys.issue({ developerId: developer.id, mode: 'test', kind: 'secret', scopes: ['customers:read'] });
    // A non-empty allowlist, so the IP guard really matches the address (loopback is on it).
    const allowlist = api.get(IpAllowlistService, { strict: false });
    for (const cidr of ['10.0.0.0/8', '127.0.0.1/32']) await allowlist.add(developer.id, cidr);
    const customer = await api.get(CustomersService, { strict: false }).create({ developerId: developer.id, mode: 'test' }, { email: 'c@example.com' });
    bareContext = { developerId: developer.id, mode: 'test' };

    const auth = { authorization: `Bearer ${secret}` };
    const path = `/customers/${customer.reference}`;
    const scenarios: Scenario[] = [
      { id: 'bare', label: 'same handler, no guards/interceptors/logging', url: `${urlOf(bare)}/bare${path}` },
      { id: 'memory', label: 'full chain, rate limits in memory', url: `${urlOf(api)}/api/v1${path}`, headers: auth },
    ];
    if (redisApi) scenarios.push({ id: 'redis', label: 'full chain, rate limits in Redis', url: `${urlOf(redisApi)}/api/v1${path}`, headers: auth });
    const selected = scenarios.filter((s) => !ONLY || ONLY.includes(s.id));

    // Warm every server (JIT, pools, key cache, Redis connection) before measuring.
    for (const s of selected) await load(`warm-up ${s.id}`, s.url, { connections: CONNECTIONS, durationSeconds: WARM_UP_SECONDS, headers: s.headers });
    const rounds = new Map<string, LoadResult[]>(selected.map((s) => [s.id, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of selected) {
        const result = await loadMeasuringCpu(s.label, s.url, { connections: CONNECTIONS, durationSeconds: SECONDS, headers: s.headers });
        if (result.non2xx || result.errors) throw new Error(`${s.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        rounds.get(s.id)?.push(result);
      }
    }
    const results = selected.map((s) => medianResult(rounds.get(s.id) ?? []));
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} round(s), Node ${process.version}`);
    printTable(results);
    printAdded(results, selected);

    // Phase 2: the same requests at light load (≈ CONNECTIONS / MEAN_GAP_MS requests per second).
    const lightRounds = new Map<string, LoadResult[]>(selected.map((s) => [s.id, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of selected) {
        const result = await paced(s.label, s.url, { connections: CONNECTIONS, durationSeconds: SECONDS, meanGapMs: MEAN_GAP_MS, headers: s.headers });
        if (result.non2xx || result.errors) throw new Error(`${s.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        lightRounds.get(s.id)?.push(result);
      }
    }
    const steady = selected.map((s) => medianResult(lightRounds.get(s.id) ?? []));
    console.log(`\nLight load: ${CONNECTIONS} connections, each pausing 0–${2 * MEAN_GAP_MS} ms between requests, ${SECONDS} s per run, median of ${ROUNDS} round(s)`);
    printTable(steady);
    printAdded(steady, selected);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

function printAdded(results: LoadResult[], selected: Scenario[]): void {
  const unguarded = results[selected.findIndex((s) => s.id === 'bare')];
  if (!unguarded) return;
  for (const guarded of results.filter((r) => r !== unguarded)) {
    console.log(
      `added by the chain (${guarded.label}): p50 ${(guarded.p50 - unguarded.p50).toFixed(2)} ms, ` +
        `p99 ${(guarded.p99 - unguarded.p99).toFixed(2)} ms; throughput ratio ${(guarded.rps / unguarded.rps).toFixed(2)}`,
    );
  }
}

/** The baseline: same adapter options and pool size as the API, nothing else. */
async function createBareApp(config: AppConfig, databaseUrl: string): Promise<NestFastifyApplication> {
  @Module({
    imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, configuredPool(config.database)), autoLoadEntities: true }), CustomersModule],
    controllers: [BareCustomersController],
    providers: [{ provide: Clock, useValue: new SystemClock() }],
    exports: [Clock],
  })
  class BareModule {}
  const adapter = new FastifyAdapter({ bodyLimit: 1024 * 1024, routerOptions: { ignoreTrailingSlash: true }, logger: false });
  return NestFactory.create<NestFastifyApplication>({ module: BareModule, global: true }, adapter, { logger: false, bodyParser: false });
}

async function listening(app: NestFastifyApplication, closers: Array<() => Promise<unknown>>): Promise<NestFastifyApplication> {
  closers.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

function urlOf(app: NestFastifyApplication): string {
  return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
