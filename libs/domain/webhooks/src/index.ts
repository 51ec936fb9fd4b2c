// The webhooks capability owns the events outbox and its deliveries: the tables events,
// webhook_endpoints, webhook_deliveries and webhook_delivery_logs are written here and nowhere else.
// Other capabilities record events through EventsModule / EventsService.emit, in their own transaction.
export { EventsModule } from './events.module';
export { EventsService } from './events.service';
/** The SQL of an event written inside a caller's one statement (see EventsService.emitInStatement). */
export { eventWithFanOutCtes } from './events.repository';
export { EventsFeedModule } from './events-feed.module';
export { EventsFeedService, EVENT_FEED_CHANNEL, type EventFeedPage, type EventFeedRequest } from './events-feed.service';
export { WebhooksModule } from './webhooks.module';
export { WebhooksService, type NewWebhook, type WebhookChanges, type EndpointWithSecret } from './webhooks.service';
export { WebhookDispatcher } from './webhook-dispatcher.service';
export { WebhookRecoveryService, REPLAY_BATCH, type DisabledEndpoint, type ReplayResult } from './webhook-recovery.service';
export { HEALTH_WINDOW_DAYS, type WebhookEndpointView } from './webhook-endpoint-view';
export { WebhookHealthService, FAILING_ENDPOINT_WINDOW_DAYS, type FailingEndpoint } from './webhook-health.service';
export { DELIVERIES_DUE_CHANNEL } from './deliveries-due';
export { toWebhookResponse, toWebhookLogResponse, toWebhookAttemptResponse, toRequestTraceEventResponse } from './webhook.mapper';
export type { RequestEvent, RequestEvents } from './request-events';
export * from './wire';
export { WebhookResolver } from './webhook-resolver';
