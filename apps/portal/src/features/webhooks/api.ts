import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type Webhook = Schema<'WebhookResponse'>;
export type WebhookEvent = Webhook['events'][number];
export type WebhookVersion = Webhook['webhook_version'];
export type WebhookLog = Schema<'WebhookLogResponse'>;
export type WebhookAttempt = Schema<'WebhookAttemptResponse'>;
export type NewWebhook = Schema<'CreateWebhookRequest'>;
export type WebhookChanges = Schema<'UpdateWebhookRequest'>;
export type WebhookHealth = Webhook['health'];
export type WebhookReplay = Schema<'ReplayWebhookResponse'>;

/** An account has a handful of endpoints: the first page of 100 is all of them. */
export async function listWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return (await unwrapPage(portalApi.GET('/api/portal/webhooks', { params: { query: { limit: 100 } }, signal }))).data;
}

export function getWebhook(id: string, signal?: AbortSignal): Promise<Webhook> {
  return unwrap(portalApi.GET('/api/portal/webhooks/{id}', { params: { path: { id } }, signal }));
}

/** The answer carries the signing secret, shown this once. */
export function createWebhook(body: NewWebhook): Promise<Webhook> {
  return unwrap(portalApi.POST('/api/portal/webhooks', { body }));
}

/** With `rotate_secret: true` the answer carries the new secret, shown this once. */
export function updateWebhook(id: string, body: WebhookChanges): Promise<Webhook> {
  return unwrap(portalApi.PATCH('/api/portal/webhooks/{id}', { params: { path: { id } }, body }));
}

export function deleteWebhook(id: string): Promise<unknown> {
  return unwrap(portalApi.DELETE('/api/portal/webhooks/{id}', { params: { path: { id } } }));
}

/** A disabled endpoint receives events again; its run of failures starts afresh. */
export function enableWebhook(id: string): Promise<Webhook> {
  return unwrap(portalApi.POST('/api/portal/webhooks/{id}/enable', { params: { path: { id } } }));
}

/** Queues one new attempt of every delivery created since `since` that ended failed; answers how many. */
export function replayWebhook(id: string, since: string): Promise<WebhookReplay> {
  return unwrap(portalApi.POST('/api/portal/webhooks/{id}/replay', { params: { path: { id } }, body: { since } }));
}

export function sendTestEvent(id: string): Promise<WebhookAttempt> {
  return unwrap(portalApi.POST('/api/portal/webhooks/test', { body: { webhook_id: id } }));
}

export const LOGS_PAGE_SIZE = 25;

export function listWebhookLogs(id: string, cursor: string | undefined, signal?: AbortSignal): Promise<Page<WebhookLog[]>> {
  return unwrapPage(portalApi.GET('/api/portal/webhooks/{id}/logs', { params: { path: { id }, query: { limit: LOGS_PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

export function retryDelivery(logId: string): Promise<WebhookAttempt> {
  return unwrap(portalApi.POST('/api/portal/webhooks/logs/{log_id}/retry', { params: { path: { log_id: logId } } }));
}
