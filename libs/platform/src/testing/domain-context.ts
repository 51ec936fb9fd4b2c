import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock, ManualClock } from '../clock';
import { dataSourceOptions, type PoolSettings } from '../database';

/**
 * Boots domain modules on this run's test database (integration tests, `*.int-spec.ts`), with a
 * ManualClock standing in for time. `databaseUrl`: another database, e.g. one a test file
 * creates for itself (createTestDatabase) because it changes what every file would see. `pool`:
 * the connection pool's settings (4 connections by default).
 */
export async function createDomainTestContext(
  modules: Array<Type<unknown> | DynamicModule>,
  clock = new ManualClock(new Date()),
  databaseUrl = process.env.TEST_DATABASE_URL,
  pool: PoolSettings = { size: 4 },
): Promise<{ app: INestApplicationContext; clock: ManualClock }> {
  const url = databaseUrl;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: is the jest globalSetup configured?');

  @Module({})
  class DomainTestModule {}

  const root: DynamicModule = {
    module: DomainTestModule,
    global: true,
    imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, pool), autoLoadEntities: true }), ...modules],
    providers: [{ provide: Clock, useValue: clock }],
    exports: [Clock],
  };
  const app = await NestFactory.createApplicationContext(root, { logger: false });
  return { app, clock };
}
