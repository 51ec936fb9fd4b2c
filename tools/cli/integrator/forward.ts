import type { EventResponse, WebhookVersion } from '@gateway/contracts';
import { deliveryRequest } from '@gateway/domain/webhooks/wire';
import ipaddr from 'ipaddr.js';
import { describeFetchError } from './gateway-client';

/** The gateway's own limit for a receiver's answer (decisions.md: any 2xx within 10 seconds). */
const FORWARD_TIMEOUT_MS = 10_000;

export interface ForwardOutcome {
  /** The receiver's status; null when it did not answer. */
  status: number | null;
  /** Why there is no status: `timed out`, `ECONNREFUSED`, … */
  error: string | null;
  latencyMs: number;
}

/**
 * The forward URL, checked: http(s) to this machine only (localhost, 127.0.0.0/8, ::1). The CLI
 * posts signed test events wherever it is told, so it must not become a way to send them to
 * another host.
 * @throws Error naming what is wrong
 */
export function forwardTarget(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--forward-to is not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--forward-to must be http:// or https://, not ${url.protocol}`);
  if (!isLoopbackHost(url.hostname)) throw new Error(`--forward-to must point to this machine (localhost, 127.0.0.1 or [::1]), not ${url.hostname}`);
  return url;
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/**
 * POSTs the event to `target` exactly as a webhook delivery of the gateway would be sent: the
 * same canonical body for `version`, the same headers, signed now with `secret`. Redirects are
 * not followed (the gateway follows none either).
 */
export async function forwardEvent(target: URL, event: EventResponse, version: WebhookVersion, secret: string, signal: AbortSignal): Promise<ForwardOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const delivery = deliveryRequest({ id: event.id, name: event.event, mode: event.mode, data: event.data, createdAt: new Date(event.created_at) }, version, [secret], timestamp);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Gateway-Webhooks/1.0 (sandbox CLI)', ...delivery.headers },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, error: null, latencyMs: latency() };
  } catch (error) {
    return { status: null, error: describeFetchError(error), latencyMs: latency() };
  }
}
