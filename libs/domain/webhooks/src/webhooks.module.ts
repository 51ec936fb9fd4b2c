import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Encryptor, encryptorFromConfig } from '@gateway/platform';
import { WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookResolver } from './webhook-resolver';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity, WebhookDeliveryLogEntity])],
  providers: [
    WebhooksService,
    WebhookDispatcher,
    WebhookResolver,
    {
      provide: Encryptor,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => encryptorFromConfig(config, (message) => new Logger('Encryption').warn(message)),
    },
  ],
  exports: [WebhooksService, WebhookDispatcher, WebhookResolver],
})
export class WebhooksModule {}
