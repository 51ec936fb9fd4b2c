import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Encryptor, encryptorFromConfig } from '@gateway/platform';
import { EventEntity } from './event.entity';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLogsRepository } from './webhook-delivery-logs.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEndpointHealthRepository } from './webhook-endpoint-health.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookHealthRepository } from './webhook-health.repository';
import { WebhookHealthService } from './webhook-health.service';
import { WebhookRecoveryService } from './webhook-recovery.service';
import { WebhookResolver } from './webhook-resolver';
import { WebhooksService } from './webhooks.service';

/** Merchants' endpoints and the sending of deliveries (the API's routes, the scheduler's worker). */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookDeliveryLogEntity])],
  providers: [
    WebhooksService,
    WebhookRecoveryService,
    // Emits `webhook_endpoint.disabled` when the scan disables an endpoint.
    EventsService,
    WebhookDispatcher,
    WebhookResolver,
    EventsRepository,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveryLogsRepository,
    WebhookEndpointHealthRepository,
    WebhookHealthService,
    WebhookHealthRepository,
    {
      provide: Encryptor,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => encryptorFromConfig(config, (message) => new Logger('Encryption').warn(message)),
    },
  ],
  exports: [WebhooksService, WebhookRecoveryService, WebhookDispatcher, WebhookResolver, WebhookHealthService],
})
export class WebhooksModule {}
