import type { RequestLogResponse } from '@gateway/contracts';
import { followFeed } from './follow-feed';
import type { GatewayClient } from './gateway-client';
import type { Output } from './listen';

export interface TailOptions {
  /** `4xx`, `5xx` (a class) or one code such as `404`. */
  status?: string;
  /** Part of the path. */
  path?: string;
  json: boolean;
}

/** `--status` as the feed's filter: a class (`4xx`) or one code. */
export function statusFilter(status: string | undefined): { status?: string; status_class?: string } {
  if (status === undefined) return {};
  if (/^[1-5]xx$/i.test(status)) return { status_class: status.toLowerCase() };
  if (/^[1-5]\d\d$/.test(status)) return { status };
  throw new Error(`--status must be a class such as 4xx or a code such as 404, not ${status}`);
}

/**
 * Prints the account's API requests in test mode as the gateway logs them, from now on: time,
 * method, path, status, duration and request id (`--json`: the whole entry, bodies redacted).
 * Entries are written about a second after their answer, so they show that much later.
 */
export async function tailLogs(client: GatewayClient, options: TailOptions, out: Output, signal: AbortSignal): Promise<void> {
  const filter = statusFilter(options.status);
  await followFeed<RequestLogResponse>({
    client,
    path: '/request-logs',
    query: { ...filter, path: options.path },
    signal,
    log: (text) => out.note(text),
    onReady: () => out.note(`Following the test-mode request log of ${client.baseUrl}. Press Ctrl-C to stop.`),
    handle: async (entries) => {
      for (const entry of entries) {
        out.line(
          options.json
            ? JSON.stringify(entry)
            : `${entry.created_at}  ${entry.method.padEnd(6)} ${entry.path.padEnd(44)} ${String(entry.status_code).padEnd(4)} ${String(entry.duration_ms).padStart(6)} ms  ${entry.request_id}`,
        );
      }
    },
  });
}
