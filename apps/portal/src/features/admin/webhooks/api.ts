import { portalApi, unwrapPage, type Page, type Schema } from '../../../shared/api';

export type FailingEndpoint = Schema<'AdminFailingWebhookEndpointResponse'>;

export const PAGE_SIZE = 25;

export function listFailingEndpoints(cursor: string | undefined, signal?: AbortSignal): Promise<Page<FailingEndpoint[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/webhooks/failing', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}
