/** The job-queue task that attempts one webhook delivery (run by the scheduler's worker). */
export const WEBHOOK_DELIVERY_TASK = 'webhook_delivery';

/** graphile-worker's own retries of a delivery job (the delivery's schedule is ours, not these). */
export const DELIVERY_JOB_MAX_ATTEMPTS = 5;
