import { IsInt, Max, Min } from 'class-validator';

/** A test clock runs at most this far ahead of real time (ten years of 366 days). */
export const MAX_TEST_CLOCK_OFFSET_SECONDS = 316_224_000; // 10 × 366 days

export class AdvanceTestClockRequest {
  /**
   * Whole seconds to move this developer's test time forward (1 s to ten years in all).
   * @example 2592000
   */
  @IsInt({ message: 'seconds must be a whole number of seconds' })
  @Min(1, { message: 'seconds must be at least 1' })
  @Max(MAX_TEST_CLOCK_OFFSET_SECONDS, { message: `seconds must be at most ${MAX_TEST_CLOCK_OFFSET_SECONDS} (ten years)` })
  seconds: number;
}

/** How many objects each time-driven rule moved when the clock was advanced. */
export class TestClockRulesRun {
  abandoned_payments: number;
  scheduled_charges: number;
  payment_intent_expiry: number;
  dispute_expiry: number;
  subscription_billing: number;
  invoice_overdue: number;
}

export class TestClockResponse {
  /** This developer's test-mode time (ISO 8601 UTC). */
  now: string;
  /** How far it runs ahead of real time; 0 when never advanced or reset. */
  offset_seconds: number;
  /** Present on advance: what the rules did at the new time. */
  rules_run?: TestClockRulesRun;
}
