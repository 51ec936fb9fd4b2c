import { badRequest } from '../errors';
import { type Currency, isCurrency, SUPPORTED_CURRENCIES } from '../money';
import type { RequestBody } from '../http/validation';

/**
 * What a hung API call does once `hangMs` has elapsed (long after the client gave up):
 * - before_processing: answer 504 without touching state — the request "never arrived";
 * - after_processing: the request was processed, only the response was delayed — the
 *   nastier real-world case where the client must retry idempotently to learn the outcome.
 */
export type TimeoutMode = 'before_processing' | 'after_processing';
const TIMEOUT_MODES: readonly TimeoutMode[] = ['before_processing', 'after_processing'];

/** What a misreported transaction gets wrong: one minor unit less, or the other currency. */
export type MisreportField = 'amount' | 'currency';
const MISREPORT_FIELDS: readonly MisreportField[] = ['amount', 'currency'];

/**
 * A reused transfer or hold reference: `refuse` answers Paystack's `400 duplicate_reference`
 * (its documented behaviour: recover by verifying the reference); `replay` returns the original
 * object when the request is the same (the simulator's former accommodation).
 */
export type DuplicateReferences = 'refuse' | 'replay';
const DUPLICATE_REFERENCE_MODES: readonly DuplicateReferences[] = ['refuse', 'replay'];

/** Fault-injection and timing controls. They apply to the Paystack API routes, not to /sim or /checkout. */
export interface Knobs {
  /** Added latency on every API call. */
  latencyMs: number;
  /** The next N API calls answer `failStatus` without being processed. */
  failNext: number;
  /** The HTTP status of a `failNext` answer: 500 by default; 409 or 429 play a busy or rate-limiting provider. */
  failStatus: number;
  /** The next N API calls hang for `hangMs` so a client timeout fires. */
  timeoutNext: number;
  hangMs: number;
  timeoutMode: TimeoutMode;
  /** Transfers and refunds complete on their own after `transferDelayMs`; when false they wait for /sim/…/complete. */
  autoComplete: boolean;
  transferDelayMs: number;
  /** The next N transactions answered by verify or charge_authorization report a wrong `misreport` field. */
  misreportNext: number;
  misreport: MisreportField;
  /** New transfers answer `status: "otp"` until `POST /transfer/finalize_transfer` (the account requires OTP for transfers). */
  transferOtp: boolean;
  duplicateReferences: DuplicateReferences;
  /**
   * The account passes Paystack's fees on to its customers (a dashboard setting): a successful
   * transaction's `amount` is the requested amount plus `fees`, and `requested_amount` the requested one.
   */
  customerBearsFees: boolean;
  /**
   * The currencies the account has enabled (Paystack enables them per integration): a payment or a
   * hold in another one is refused with 400 "Currency not supported by merchant".
   */
  currencies: readonly Currency[];
}

export const DEFAULT_KNOBS: Knobs = {
  latencyMs: 0,
  failNext: 0,
  failStatus: 500,
  timeoutNext: 0,
  hangMs: 30_000,
  timeoutMode: 'before_processing',
  autoComplete: true,
  transferDelayMs: 1_000,
  misreportNext: 0,
  misreport: 'amount',
  transferOtp: false,
  duplicateReferences: 'refuse',
  customerBearsFees: false,
  currencies: SUPPORTED_CURRENCIES,
};

/** Keeps hung requests and sleeps bounded, so a typo cannot wedge a test run for hours. */
const MAX_DELAY_MS = 10 * 60 * 1_000;

export class KnobState {
  private knobs: Knobs;

  constructor(private readonly defaults: Knobs) {
    validateKnobs(defaults);
    this.knobs = { ...defaults };
  }

  get current(): Knobs {
    return { ...this.knobs };
  }

  update(patch: Partial<Knobs>): Knobs {
    const next = { ...this.knobs, ...patch };
    validateKnobs(next);
    this.knobs = next;
    return this.current;
  }

  reset(): void {
    this.knobs = { ...this.defaults };
  }

  /** True when this call must fail; consumes one unit of `failNext`. */
  takeFailure(): boolean {
    if (this.knobs.failNext <= 0) return false;
    this.knobs.failNext -= 1;
    return true;
  }

  /** The field this transaction answer must get wrong, if any; consumes one unit of `misreportNext`. */
  takeMisreport(): MisreportField | null {
    if (this.knobs.misreportNext <= 0) return null;
    this.knobs.misreportNext -= 1;
    return this.knobs.misreport;
  }

  /** True when this call must hang; consumes one unit of `timeoutNext`. */
  takeTimeout(): boolean {
    if (this.knobs.timeoutNext <= 0) return false;
    this.knobs.timeoutNext -= 1;
    return true;
  }
}

export function validateKnobs(knobs: Knobs): void {
  const wholeNumber = (name: string, value: number, max = Number.MAX_SAFE_INTEGER) => {
    if (!Number.isSafeInteger(value) || value < 0 || value > max) {
      throw badRequest(`${name} must be an integer between 0 and ${max}`);
    }
  };
  wholeNumber('latency_ms', knobs.latencyMs, MAX_DELAY_MS);
  wholeNumber('fail_next', knobs.failNext);
  if (!Number.isSafeInteger(knobs.failStatus) || knobs.failStatus < 400 || knobs.failStatus > 599) {
    throw badRequest('fail_status must be an integer between 400 and 599');
  }
  wholeNumber('misreport_next', knobs.misreportNext);
  if (!MISREPORT_FIELDS.includes(knobs.misreport)) throw badRequest(`misreport must be one of: ${MISREPORT_FIELDS.join(', ')}`);
  wholeNumber('timeout_next', knobs.timeoutNext);
  wholeNumber('hang_ms', knobs.hangMs, MAX_DELAY_MS);
  wholeNumber('transfer_delay_ms', knobs.transferDelayMs, MAX_DELAY_MS);
  if (!TIMEOUT_MODES.includes(knobs.timeoutMode)) throw badRequest(`timeout_mode must be one of: ${TIMEOUT_MODES.join(', ')}`);
  if (typeof knobs.autoComplete !== 'boolean') throw badRequest('auto_complete must be a boolean');
  if (typeof knobs.transferOtp !== 'boolean') throw badRequest('transfer_otp must be a boolean');
  if (typeof knobs.customerBearsFees !== 'boolean') throw badRequest('customer_bears_fees must be a boolean');
  if (!DUPLICATE_REFERENCE_MODES.includes(knobs.duplicateReferences)) {
    throw badRequest(`duplicate_references must be one of: ${DUPLICATE_REFERENCE_MODES.join(', ')}`);
  }
  if (!Array.isArray(knobs.currencies) || knobs.currencies.length === 0 || !knobs.currencies.every(isCurrency)) {
    throw badRequest(`currencies must be a non-empty list of: ${SUPPORTED_CURRENCIES.join(', ')}`);
  }
}

export function knobsToWire(knobs: Knobs) {
  return {
    latency_ms: knobs.latencyMs,
    fail_next: knobs.failNext,
    fail_status: knobs.failStatus,
    timeout_next: knobs.timeoutNext,
    hang_ms: knobs.hangMs,
    timeout_mode: knobs.timeoutMode,
    auto_complete: knobs.autoComplete,
    transfer_delay_ms: knobs.transferDelayMs,
    misreport_next: knobs.misreportNext,
    misreport: knobs.misreport,
    transfer_otp: knobs.transferOtp,
    duplicate_references: knobs.duplicateReferences,
    customer_bears_fees: knobs.customerBearsFees,
    currencies: [...knobs.currencies],
  };
}

/** Reads the snake_case wire form; types are checked here, ranges by validateKnobs. */
export function knobPatchFromWire(body: RequestBody): Partial<Knobs> {
  const patch: Partial<Knobs> = {};
  const numberField = (wire: string): number | undefined => {
    const value = body[wire];
    if (value === undefined) return undefined;
    if (typeof value !== 'number') throw badRequest(`${wire} must be a number`);
    return value;
  };
  const assign = <K extends keyof Knobs>(key: K, value: Knobs[K] | undefined) => {
    if (value !== undefined) patch[key] = value;
  };
  assign('latencyMs', numberField('latency_ms'));
  assign('failNext', numberField('fail_next'));
  assign('failStatus', numberField('fail_status'));
  assign('misreportNext', numberField('misreport_next'));
  assign('timeoutNext', numberField('timeout_next'));
  assign('hangMs', numberField('hang_ms'));
  assign('transferDelayMs', numberField('transfer_delay_ms'));
  if (body['timeout_mode'] !== undefined) assign('timeoutMode', body['timeout_mode'] as TimeoutMode);
  if (body['misreport'] !== undefined) assign('misreport', body['misreport'] as MisreportField);
  if (body['auto_complete'] !== undefined) {
    if (typeof body['auto_complete'] !== 'boolean') throw badRequest('auto_complete must be a boolean');
    assign('autoComplete', body['auto_complete']);
  }
  if (body['transfer_otp'] !== undefined) {
    if (typeof body['transfer_otp'] !== 'boolean') throw badRequest('transfer_otp must be a boolean');
    assign('transferOtp', body['transfer_otp']);
  }
  if (body['duplicate_references'] !== undefined) assign('duplicateReferences', body['duplicate_references'] as DuplicateReferences);
  if (body['customer_bears_fees'] !== undefined) {
    if (typeof body['customer_bears_fees'] !== 'boolean') throw badRequest('customer_bears_fees must be a boolean');
    assign('customerBearsFees', body['customer_bears_fees']);
  }
  if (body['currencies'] !== undefined) assign('currencies', body['currencies'] as Currency[]);
  return patch;
}
