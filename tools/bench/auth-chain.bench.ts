import 'reflect-metadata';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { CustomersModule, CustomersService, toCustomerResponse } from '@gateway/domain/customers';
import { DevelopersService } from '@gateway/domain/developers';
import { Clock, dataSourceOptions, loadConfig, SystemClock } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { load, printTable } from './bench-support';

/**
 * Latency the whole guard + interceptor + logging chain adds to an authenticated GET: the real
 * API's GET /api/v1/customers/{ref} versus the same service call behind a bare Nest + Fastify
 * route with no guards, interceptors, pipes or logging. 32 connections.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node … or
 *   node -r @swc-node/register tools/bench/auth-chain.bench.ts
 */
let bareContext = { developerId: '', mode: 'test' as const };

@Controller('bare/customers')
class BareCustomersController {
  constructor(private readonly customers: CustomersService) {}
  @Get(':ref')
  async get(@Param('ref') ref: string) {
    return { success: true, data: toCustomerResponse(await this.customers.get(bareContext, ref)) };
  }
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_auth', serverUrl);
  const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`, RATE_LIMIT_TEST_PER_SECOND: '1000000', RATE_LIMIT_IP_PER_SECOND: '1000000' });
  const api = await createApiApp({ config, databaseUrl, logger: false });
  await api.listen({ host: '127.0.0.1', port: 0 });

  @Module({
    imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, 10), autoLoadEntities: true }), CustomersModule],
    controllers: [BareCustomersController],
    providers: [{ provide: Clock, useValue: new SystemClock() }],
    exports: [Clock],
  })
  class BareModule {}
  const bare = await NestFactory.create<NestFastifyApplication>({ module: BareModule, global: true }, new FastifyAdapter(), { logger: false });
  await bare.listen({ host: '127.0.0.1', port: 0 });

  try {
    const developer = await api.get(DevelopersService, { strict: false }).create({ email: 'bench@example.com', name: 'Bench', emailVerified: true });
    const { secret } = await api.get(ApiKeysService, { strict: false }).issue({ developerId: developer.id, mode: 'test', kind: 'secret' });
    const customer = await api.get(CustomersService, { strict: false }).create({ developerId: developer.id, mode: 'test' }, { email: 'c@example.com' });
    bareContext = { developerId: developer.id, mode: 'test' };

    const apiUrl = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}`;
    const bareUrl = `http://127.0.0.1:${(bare.getHttpServer().address() as { port: number }).port}`;
    const duration = Number(process.env.BENCH_SECONDS ?? 10);
    // Warm both (JIT, pools, key cache) before measuring.
    await load('warm-up', `${bareUrl}/bare/customers/${customer.reference}`, { durationSeconds: 2 });
    await load('warm-up', `${apiUrl}/api/v1/customers/${customer.reference}`, { durationSeconds: 2, headers: { authorization: `Bearer ${secret}` } });
    const unguarded = await load('same handler, no guards/interceptors/logging', `${bareUrl}/bare/customers/${customer.reference}`, { durationSeconds: duration });
    const guarded = await load('GET /api/v1/customers/{ref}, full chain', `${apiUrl}/api/v1/customers/${customer.reference}`, {
      durationSeconds: duration,
      headers: { authorization: `Bearer ${secret}` },
    });
    printTable([unguarded, guarded]);
    console.log(`\nadded by the chain: p50 ${(guarded.p50 - unguarded.p50).toFixed(2)} ms, p99 ${(guarded.p99 - unguarded.p99).toFixed(2)} ms; throughput ratio ${(guarded.rps / unguarded.rps).toFixed(2)}`);
  } finally {
    await api.close();
    await bare.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
