/**
 * The channel the scheduler's dispatcher LISTENs on: a transaction that makes deliveries due at
 * once (an event's fan-out, a replay) NOTIFYs it, so the first attempt starts within milliseconds
 * of the commit. One notification per transaction (same channel and payload are merged), and none
 * when no delivery was made. Retries fall due later and are found by the dispatcher's poll.
 */
export const DELIVERIES_DUE_CHANNEL = 'webhook_deliveries_due';
