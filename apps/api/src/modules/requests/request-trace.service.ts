import { Injectable } from '@nestjs/common';
import { REQUEST_ID_PATTERN, type RequestTraceResponse } from '@gateway/contracts';
import { LedgerService, toLedgerEntryResponse } from '@gateway/domain/ledger';
import { RequestLogsService } from '@gateway/domain/request-logs';
import { toRequestTraceEventResponse, WebhooksService } from '@gateway/domain/webhooks';
import { type DeveloperContext, DomainError, validationError } from '@gateway/platform';

/**
 * What one request did, from the three modules that recorded it: its request log entry
 * (request-logs), the ledger entries it posted (ledger) and the events it emitted with their
 * deliveries (webhooks). It lives in the API, above the domain tiers, because it reads three
 * capabilities of which none may depend on the others (request-logs and ledger are leaves,
 * webhooks is the core); each part is read through its owner's service, scoped to the caller's
 * account and mode, so another tenant's request is indistinguishable from a missing one.
 */
@Injectable()
export class RequestTraceService {
  constructor(
    private readonly requestLogs: RequestLogsService,
    private readonly ledger: LedgerService,
    private readonly webhooks: WebhooksService,
  ) {}

  /**
   * The request's trace. Request logs are written in batches after the answer, so a request that
   * just finished may have ledger entries and events but no entry yet (`request: null`, as after
   * the 90-day purge); a request that left nothing at all in this account and mode — not made
   * here, not logged yet and nothing posted or emitted — is not found.
   * @throws validation_error (not a request id), request_not_found
   */
  async trace(ctx: DeveloperContext, requestId: string): Promise<RequestTraceResponse> {
    if (!REQUEST_ID_PATTERN.test(requestId)) throw validationError('request_id', 'must be a request id: req_ followed by 32 lowercase hex digits (the X-Request-Id header)');
    const [request, ledgerEntries, events] = await Promise.all([
      this.requestLogs.findByRequestId(ctx, requestId),
      this.ledger.entriesForRequest(ctx, requestId),
      this.webhooks.eventsForRequest(ctx, requestId),
    ]);
    if (!request && ledgerEntries.length === 0 && events.events.length === 0) {
      throw new DomainError('request_not_found', 'No such request in this account and mode.');
    }
    return {
      request,
      ledger_entries: ledgerEntries.map(toLedgerEntryResponse),
      events: events.events.map(toRequestTraceEventResponse),
      events_truncated: events.truncated,
    };
  }
}
