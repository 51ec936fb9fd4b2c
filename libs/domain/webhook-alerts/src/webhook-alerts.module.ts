import { Module } from '@nestjs/common';
import { DevelopersModule } from '@gateway/domain/developers';
import { IdentityModule } from '@gateway/domain/identity';
import { WebhooksModule } from '@gateway/domain/webhooks';
import { EndpointDisablingService } from './endpoint-disabling.service';

/** Disabling failing webhook endpoints and telling their owners (no tables of its own). */
@Module({
  imports: [WebhooksModule, IdentityModule, DevelopersModule],
  providers: [EndpointDisablingService],
  exports: [EndpointDisablingService],
})
export class WebhookAlertsModule {}
