import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../pagination';

/** Most sub-accounts one payment may be split among. */
export const MAX_SPLITS = 50;

export class PaymentSplitRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  subaccount: string;

  /** A fraction of the amount, > 0, at most 4 decimal places (checked exactly by the service). */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'share must be a number' })
  share: number;
}

export class InitializePaymentRequest {
  /**
   * Major unit (e.g. 1500.50 NGN); exactness, range and minimum are checked by the service.
   * @example 1500.5
   */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** @example "ada@example.com" */
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  /**
   * NGN by default; anything else than NGN, USD, GBP, KES is `invalid_currency`, and one the
   * mode's provider account does not take payments in (GBP with Paystack) is 422 `capability_not_supported`.
   * @example "NGN"
   */
  @IsOptional()
  @IsString({ message: 'currency must be a string' })
  currency?: string;

  /** @example "https://shop.example.com/orders/1042/paid" */
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'callback_url must be an http(s) URL' })
  @MaxLength(2048)
  callback_url?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  /** Same meaning as the Idempotency-Key header (checked by the idempotency layer). */
  @IsOptional()
  @IsString()
  idempotency_key?: string;

  /** A saved authorization to charge at `charge_at` (scheduled charge). */
  @IsOptional()
  @IsString()
  @Matches(/^AUTH_[A-Za-z0-9]{1,64}$/, { message: 'authorization_code must be an authorization code (AUTH_…) from a successful payment' })
  authorization_code?: string;

  /** ISO 8601 UTC, more than 60 s ahead (`invalid_charge_at` otherwise). */
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'charge_at must be an ISO 8601 UTC date-time' })
  charge_at?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => PaymentSplitRequest)
  splits?: PaymentSplitRequest[];
}

export class VerifyPaymentRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  reference: string;
}

export const PAYMENT_STATUSES = ['pending', 'success', 'failed', 'abandoned', 'scheduled', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export class ListPaymentsQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @IsOptional()
  @IsString()
  currency?: string;

  /** A customer reference (`CUS_…`). */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  customer?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

export class ListCustomerPaymentsQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;
}

export class InitializePaymentResponse {
  /** @example "PAY-6f1c2a9e0b7d4c3a8e51" */
  reference: string;
  /**
   * A gateway URL (it redirects to the hosted checkout); null for a scheduled charge.
   * @example "https://pay.example.com/checkout/PAY-6f1c2a9e0b7d4c3a8e51"
   */
  authorization_url: string | null;
  status: PaymentStatus;
}

export class PaymentSplitResponse {
  subaccount: string;
  share: number;
  /** The sub-account's part, set once the payment succeeded. */
  amount: number | null;
}

/** The saved card of a successful payment: charge it again with its `authorization_code`. */
export class PaymentAuthorizationResponse {
  authorization_code: string;
  reusable: boolean;
  brand: string | null;
  last4: string | null;
  exp_month: string | null;
  exp_year: string | null;
  bank: string | null;
}

/** The fees of a successful payment, in the payment's currency. */
export class PaymentFeesResponse {
  platform: number;
  provider: number;
}

export class PaymentResponse {
  /** @example "PAY-6f1c2a9e0b7d4c3a8e51" */
  reference: string;
  status: PaymentStatus;
  /** @example 1500.5 */
  amount: number;
  /** @example "NGN" */
  currency: string;
  /** amount − platform fee − provider fee; null until the payment succeeded. */
  net_amount: number | null;
  fees: PaymentFeesResponse | null;
  amount_refunded: number;
  /** @example "ada@example.com" */
  email: string;
  /** @example "CUS_0b7d4c3a8e51f6a2" */
  customer_reference: string;
  authorization_url: string | null;
  callback_url: string | null;
  metadata: Record<string, unknown>;
  splits: PaymentSplitResponse[];
  authorization: PaymentAuthorizationResponse | null;
  gateway_response: string | null;
  channel: string | null;
  charge_at: string | null;
  paid_at: string | null;
  created_at: string;
}

export const SANDBOX_CHECKOUT_OUTCOMES = ['success', 'declined', 'insufficient_funds'] as const;

/** Test mode: pay a hosted checkout as a customer with the documented test card for this outcome. */
export class SandboxCompleteCheckoutRequest {
  @IsOptional()
  @IsIn(SANDBOX_CHECKOUT_OUTCOMES)
  outcome?: (typeof SANDBOX_CHECKOUT_OUTCOMES)[number];
}

/** Test mode: run a scheduler scan now, optionally as if it were a later time. */
export class SandboxRunScanRequest {
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'as_of must be an ISO 8601 date-time' })
  as_of?: string;
}

export class SandboxScanResponse {
  scan: string;
  affected: number;
}

/** Charge a saved card now (repeat charge). */
export class ChargePaymentRequest {
  @IsString()
  @Matches(/^AUTH_[A-Za-z0-9]{1,64}$/, { message: 'authorization_code must be an authorization code (AUTH_…) from a successful payment' })
  authorization_code: string;

  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  @IsOptional()
  @IsString({ message: 'currency must be a string' })
  currency?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => PaymentSplitRequest)
  splits?: PaymentSplitRequest[];
}

export const BULK_ITEM_TYPES = ['initialize', 'charge'] as const;

/** One item of a bulk request: `type` plus an initialize or a charge payload. */
export class BulkPaymentItemRequest {
  @IsIn(BULK_ITEM_TYPES, { message: 'type must be "initialize" or "charge"' })
  type: (typeof BULK_ITEM_TYPES)[number];
}

/** Why a bulk item failed: the code and message a single request would have answered with. */
export class PaymentBatchItemErrorResponse {
  code: string;
  message: string;
}

export class PaymentBatchItemResponse {
  /** Position of the item in the request. */
  index: number;
  type: 'initialize' | 'charge';
  status: 'pending' | 'succeeded' | 'failed';
  payment_reference: string | null;
  payment_status: string | null;
  error: PaymentBatchItemErrorResponse | null;
}

export class PaymentBatchResponse {
  /** Always `payments`: what tells this batch from a transfer batch in `batch.completed`. */
  type: 'payments';
  batch_reference: string;
  status: 'processing' | 'completed';
  total: number;
  counts: { pending: number; succeeded: number; failed: number };
  items: PaymentBatchItemResponse[];
  created_at: string;
  completed_at: string | null;
}

/** `POST /payments/bulk/`: each item is `{type, …payload}`, the payload of initialize or charge. */
export class BulkPaymentsRequest {
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsObject({ each: true, message: 'each item must be an object' })
  items: Array<Record<string, unknown>>;
}
