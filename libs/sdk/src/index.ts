export { Gateway, type GatewayOptions } from './client.js';
export { GatewayConnectionError, GatewayError, isGatewayError, WebhookSignatureError, type FieldErrors, type WebhookSignatureFailure } from './errors.js';
export { constructEvent, SIGNATURE_HEADER, type ConstructEventOptions, type WebhookHeaders } from './webhooks/construct-event.js';
export { canonicalJson } from './webhooks/canonical-json.js';
export type { DeliveredEventName, EventDataMap, EventName, WebhookEvent, WebhookEventV1, WebhookEventV2 } from './webhooks/events.js';
export type { ErrorCode, HttpMethod, ListItem, ListParams, ListPath, PathsWith, ResultOf, Schemas } from './types.js';
export type { components, operations, paths } from './generated/schema.js';
