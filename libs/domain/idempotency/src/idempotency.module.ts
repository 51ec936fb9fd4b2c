import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Encryptor, encryptorFromConfig } from '@gateway/platform';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyService } from './idempotency.service';

/** Needs the global APP_CONFIG (lock timeout, encryption keys) and Clock providers. */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity])],
  providers: [
    IdempotencyKeysRepository,
    IdempotencyService,
    {
      provide: Encryptor,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => encryptorFromConfig(config, (message) => new Logger('Idempotency').warn(message)),
    },
  ],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
