import type { EventResponse } from '@gateway/contracts';
import { EVENT_NAMES, TEST_EVENT_NAME, type WebhookVersion } from '@gateway/contracts/events';
import { newSigningSecret } from '@gateway/domain/webhooks/wire';
import { followFeed } from './follow-feed';
import { forwardEvent, forwardTarget } from './forward';
import type { GatewayClient } from './gateway-client';

export interface ListenOptions {
  forwardTo: string;
  /** Only these events (all when omitted). */
  events?: string[];
  webhookVersion: WebhookVersion;
  /** The signing secret; a new one per session when omitted. */
  secret?: string;
}

export interface Output {
  /** Results: one line per event or entry. */
  line(text: string): void;
  /** Status: banners, lost and regained connections. */
  note(text: string): void;
}

/**
 * Forwards the account's test events, from now on, to a server on this machine, signed like real
 * deliveries, printing each with the receiver's answer. Events go one at a time, in order; a
 * receiver that fails is not retried (the next event is forwarded all the same): trigger again.
 * Runs until `signal` fires.
 * @throws Error for a forward URL off this machine or an unknown event name; ApiError when the key is refused
 */
export async function listen(client: GatewayClient, options: ListenOptions, out: Output, signal: AbortSignal): Promise<void> {
  const target = forwardTarget(options.forwardTo);
  const unknown = options.events?.find((name) => !(EVENT_NAMES as readonly string[]).includes(name) && name !== TEST_EVENT_NAME);
  if (unknown !== undefined) throw new Error(`--events: ${unknown} is not an event name (see docs/webhooks.md for the catalog)`);
  const secret = options.secret ?? newSigningSecret();
  await followFeed<EventResponse>({
    client,
    path: '/events',
    query: { type: options.events?.join(',') },
    signal,
    log: (text) => out.note(text),
    onReady: () => {
      out.note(`Ready. Forwarding ${options.events?.join(', ') ?? 'all'} test events of ${client.baseUrl} to ${target.href} (payload ${options.webhookVersion}).`);
      out.note(`Signing secret for this session: ${secret}`);
      out.note('Press Ctrl-C to stop.');
    },
    handle: async (events) => {
      for (const event of events) {
        if (signal.aborted) return;
        const outcome = await forwardEvent(target, event, options.webhookVersion, secret, signal);
        out.line(`${new Date().toISOString()}  ${event.event.padEnd(26)} ${event.id}  → ${outcome.status ?? outcome.error} (${outcome.latencyMs} ms)`);
      }
    },
  });
}
