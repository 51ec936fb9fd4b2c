import { IsNumber, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const REFUND_STATUSES = ['pending', 'processed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export class CreateRefundRequest {
  /** @example "PAY-6f1c2a9e0b7d4c3a8e51" */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  payment_reference: string;

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

export class ListRefundsQuery extends ListQueryDto {
  /** A payment reference (`PAY-…`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  payment?: string;
}

export class RefundResponse {
  reference: string;
  payment_reference: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: RefundStatus;
  created_at: string;
  processed_at: string | null;
}
