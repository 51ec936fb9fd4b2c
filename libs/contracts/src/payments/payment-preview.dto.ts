import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MAX_SPLITS, PaymentSplitRequest } from './payment.dto';

/** What a payment would be: the money fields of initialize, nothing stored. */
export class PreviewPaymentRequest {
  /**
   * Major unit, checked exactly as initialize checks it (limits and the currency's minimum).
   * @example 5000
   */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** NGN by default. @example "NGN" */
  @IsOptional()
  @IsString({ message: 'currency must be a string' })
  currency?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => PaymentSplitRequest)
  splits?: PaymentSplitRequest[];
}

export class PaymentPreviewSplitResponse {
  subaccount: string;
  share: number;
  /** The sub-account's part: the share of the amount rounded down to the cent (less any fee shortfall). */
  amount: number;
}

export class PaymentPreviewResponse {
  /** @example 5000 */
  amount: number;
  /** @example "NGN" */
  currency: string;
  /** The account's platform fee (its override, else the default). @example 10 */
  platform_fee: number;
  /** The provider's published price of a local payment; verify ledgers the fee the provider reports. @example 175 */
  estimated_provider_fee: number;
  /** amount − platform fee − estimated provider fee, as `net_amount` after verify. @example 4815 */
  net_amount: number;
  splits: PaymentPreviewSplitResponse[];
  /** What stays in the wallet: net_amount − the split shares (rounding remainders included). @example 4815 */
  wallet_amount: number;
}
