// The webhooks capability owns the events outbox and its deliveries: the tables events,
// webhook_endpoints, webhook_deliveries and webhook_delivery_logs are written here and nowhere else.
// Other capabilities record events through EventsModule / EventsService.emit, in their own transaction.
export { EventsModule } from './events.module';
export { EventsService } from './events.service';
export { WebhooksModule } from './webhooks.module';
export { WebhooksService, type NewWebhook, type WebhookChanges, type EndpointWithSecret } from './webhooks.service';
export { WebhookDispatcher } from './webhook-dispatcher.service';
export { WebhookHealthService, FAILING_ENDPOINT_WINDOW_DAYS, type FailingEndpoint } from './webhook-health.service';
export { WEBHOOK_DELIVERY_TASK } from './delivery-task';
export { toWebhookResponse, toWebhookLogResponse, toWebhookAttemptResponse } from './webhook.mapper';
export { signPayload, signatureHeader, verifySignatureHeader } from './signature';
export { webhookBody } from './webhook-payload';
export { WebhookResolver } from './webhook-resolver';
