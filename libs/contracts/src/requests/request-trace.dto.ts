import type { DeliveredEventName } from '../events';
import type { RequestLogResponse } from '../portal/request-logs.dto';
import type { LedgerEntryResponse } from '../wallet';
import type { WebhookAttemptError } from '../webhooks';

/** The gateway's request ids, as the X-Request-Id header carries them: `req_` and 32 lowercase hex digits. */
export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{32}$/;

/** A trace lists at most this many events (oldest first); `events_truncated` says when a request emitted more. */
export const REQUEST_TRACE_MAX_EVENTS = 100;

/** One attempt to send a delivery, as the endpoint's delivery log records it (without the receiver's answer). */
export class RequestTraceAttemptResponse {
  /** The attempt's `log_id` in the endpoint's delivery log (`whl_…`), where it can be retried. */
  log_id: string;
  /** 1 for the first attempt of this delivery, then 2, 3, … whatever triggered it. */
  attempt: number;
  trigger: 'automatic' | 'manual' | 'test' | 'replay';
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  /** Why the attempt failed, as a short class (see the delivery log); null when it succeeded. */
  error: WebhookAttemptError | null;
  created_at: string;
}

/** The event's delivery to one endpoint and every attempt to send it. */
export class RequestTraceDeliveryResponse {
  /** The endpoint (`whk_…`), also when it has since been deleted. */
  webhook_id: string;
  url: string;
  /** `pending` while attempts remain, `delivered` once one succeeded, `failed` when they ran out (or the endpoint was deleted). */
  status: 'pending' | 'delivered' | 'failed';
  /** Oldest first; empty until the first attempt is made. */
  attempts: RequestTraceAttemptResponse[];
}

/** An event the request emitted, with where it went. */
export class RequestTraceEventResponse {
  /** The event id (`evt_…`), the same in every delivery attempt (header `X-Gateway-Event-Id`). */
  id: string;
  event: DeliveredEventName;
  created_at: string;
  /** One per endpoint subscribed to the event when it was emitted; empty when none was. */
  deliveries: RequestTraceDeliveryResponse[];
}

/**
 * What one request did (`GET /api/v1/requests/{request_id}`): its request log entry, the ledger
 * entries it posted, and the events it emitted with each delivery and attempt.
 */
export class RequestTraceResponse {
  /**
   * The request log entry (bodies redacted). Null while the entry is not yet written (request
   * logs are written in batches, within about a second of the answer) or after it was purged
   * (90 days); the other parts are then still shown.
   */
  request: RequestLogResponse | null;
  /** The wallet's ledger entries the request posted, oldest first; empty when it moved no money. */
  ledger_entries: LedgerEntryResponse[];
  /** The events the request emitted, oldest first, at most 100; empty when it emitted none. */
  events: RequestTraceEventResponse[];
  /** True when the request emitted more than the 100 events listed. */
  events_truncated: boolean;
}
