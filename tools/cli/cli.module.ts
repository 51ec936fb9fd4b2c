import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeysModule } from '@gateway/domain/api-keys';
import { AuditModule } from '@gateway/domain/audit';
import { DevelopersModule } from '@gateway/domain/developers';
import { IdentityModule } from '@gateway/domain/identity';
import { SettlementsModule } from '@gateway/domain/settlements';
import { type AppConfig, Clock, ConfigModule, configuredPool, dataSourceOptions, SystemClock } from '@gateway/platform';

/** The operator CLI runs the same domain services as the API, without HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, configuredPool(config.database, 2)), autoLoadEntities: true }),
        DevelopersModule,
        ApiKeysModule,
        IdentityModule,
        SettlementsModule,
        AuditModule,
      ],
      providers: [{ provide: Clock, useValue: new SystemClock() }],
      exports: [Clock],
    };
  }
}
