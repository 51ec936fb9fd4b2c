import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig, Clock, ConfigModule, dataSourceOptions, SystemClock } from '@gateway/platform';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { createValidationPipe } from './http/validation.pipe';
import { HealthModule } from './modules/health/health.module';

export interface ApiModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, clock }: ApiModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, config.database.poolSize), autoLoadEntities: true }),
        HealthModule,
      ],
      providers: [
        { provide: Clock, useValue: clock ?? new SystemClock() },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
