import { Module } from '@nestjs/common';
import { WebhookAlertsModule } from '@gateway/domain/webhook-alerts';
import { EndpointDisablingJob } from './endpoint-disabling.job';

@Module({ imports: [WebhookAlertsModule], providers: [EndpointDisablingJob] })
export class WebhookEndpointsJobsModule {}
