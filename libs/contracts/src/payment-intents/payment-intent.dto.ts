import { IsEmail, IsIn, IsNumber, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const PAYMENT_INTENT_STATUSES = ['requires_action', 'requires_capture', 'succeeded', 'canceled', 'expired'] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export class CreatePaymentIntentRequest {
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsIn(['manual'], { message: 'capture_method must be "manual"' })
  capture_method: 'manual';

  /**
   * NGN by default; one the mode's provider account cannot hold in (with Paystack: anything but ZAR)
   * is 422 `capability_not_supported`.
   * @example "NGN"
   */
  @IsOptional()
  @IsString({ message: 'currency must be a string' })
  currency?: string;

  /**
   * The saved card to hold; default: the customer's last reusable card. With neither, the intent is
   * `requires_action`: the customer authorizes the hold at `authorization_url`.
   */
  @IsOptional()
  @IsString()
  @Matches(/^AUTH_[A-Za-z0-9]{1,64}$/, { message: 'authorization_code must be an authorization code (AUTH_…) from a successful payment' })
  authorization_code?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class CapturePaymentIntentRequest {
  /** At most the held amount; default all of it. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount?: number;
}

export class PaymentIntentResponse {
  intent_reference: string;
  status: PaymentIntentStatus;
  amount: number;
  captured_amount: number | null;
  currency: string;
  email: string;
  capture_method: 'manual';
  metadata: Record<string, unknown>;
  /**
   * `requires_action` only: where the customer authorizes the hold (a gateway URL that sends them
   * on to the provider's authorize-only checkout); null otherwise.
   */
  authorization_url: string | null;
  /** The payment the capture created (`reference` = the intent's), once captured. */
  payment_reference: string | null;
  /** When the hold lapses (7 days after it was placed); while `requires_action`, when the authorization link lapses (24 h). */
  expires_at: string;
  created_at: string;
}
