// A merchant's webhook receiver on 127.0.0.1, shared with apps/api-e2e's webhook tests.
export { type ReceivedWebhook, WebhookReceiver } from '../../../api-e2e/src/support/webhook-receiver';
