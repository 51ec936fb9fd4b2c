export { WebhookAlertsModule } from './webhook-alerts.module';
export { EndpointDisablingService } from './endpoint-disabling.service';
