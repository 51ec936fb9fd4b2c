import type { DisabledEndpoint } from '@gateway/domain/webhooks';
import type { OutgoingMail } from '@gateway/domain/identity';

/**
 * Tells an owner which endpoint stopped receiving events and how to bring it back. Only the URL's
 * host: its path or query may carry the merchant's own token, and mail is read in many places.
 */
export function endpointDisabledMail(to: string, accountName: string, endpoint: DisabledEndpoint, portalBaseUrl: string): OutgoingMail {
  const since = endpoint.failingSince ? ` since ${endpoint.failingSince.toISOString()}` : '';
  return {
    to,
    subject: `Webhook endpoint disabled: ${endpoint.urlHost} (${endpoint.mode} mode)`,
    text: [
      `The payment gateway stopped sending events to the ${endpoint.mode}-mode webhook endpoint ${endpoint.reference} (${endpoint.urlHost}) of ${accountName}: ` +
        `${endpoint.failedDeliveries} deliveries in a row failed${since}, each after every retry.`,
      'New events are not sent to it while it is disabled, and its pending retries were stopped.',
      'To bring it back: fix the receiver, enable the endpoint, then replay its failed deliveries:',
      `  - in the portal: ${portalBaseUrl}/#/webhooks/${endpoint.reference}`,
      `  - or with the API: POST /api/v1/webhooks/${endpoint.reference}/enable, then POST /api/v1/webhooks/${endpoint.reference}/replay with {"since": "<when it started failing>"}`,
      `The account's other endpoints subscribed to webhook_endpoint.disabled received event ${endpoint.eventId}.`,
    ].join('\n\n'),
  };
}
