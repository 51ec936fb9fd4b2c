import { IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `POST /api/portal/payments/{reference}/refunds`: the merchant API's CreateRefundRequest without
 * `payment_reference` (it is in the path). Send an `Idempotency-Key` header so a double click
 * refunds once.
 */
export class CreatePortalRefundRequest {
  /**
   * Major unit; omitted = everything not yet refunded.
   * @example 500
   */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount?: number;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
