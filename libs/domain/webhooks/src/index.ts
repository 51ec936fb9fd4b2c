export { WebhooksModule } from './webhooks.module';
export { WebhooksService, type NewWebhook, type WebhookChanges, type EndpointWithSecret } from './webhooks.service';
export { WebhookDispatcher } from './webhook-dispatcher.service';
export { toWebhookResponse, toWebhookLogResponse, toWebhookAttemptResponse } from './webhook.mapper';
export { signPayload, signatureHeader, verifySignatureHeader } from './signature';
export { WebhookResolver } from './webhook-resolver';
