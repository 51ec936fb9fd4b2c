/**
 * The channel the scheduler's dispatcher LISTENs on: once a transaction that made deliveries due at
 * once (an event's fan-out, a replay) has committed, its process NOTIFYs it (DispatcherWake,
 * coalesced, outside that transaction), so the first attempt starts within milliseconds of the
 * commit; none when no delivery was made. Retries fall due later and are found by the dispatcher's
 * poll, as is a delivery whose wake was lost.
 */
export const DELIVERIES_DUE_CHANNEL = 'webhook_deliveries_due';
