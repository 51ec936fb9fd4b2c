import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import type { CreateTransferRequest, TransferStatus } from './transfer.dto';

/** Items in one `POST /transfers/bulk/`. */
export const TRANSFER_BULK_MAX_ITEMS = 1000;

/**
 * `POST /transfers/bulk/`: up to 1,000 transfers, each in one of the two forms of `POST /transfers/`
 * (bank form or wallet form), all in the batch's currency.
 */
export class BulkTransfersRequest {
  /** Every item's currency; NGN when omitted. An item may repeat it, never name another. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;

  /**
   * Each a body of `POST /transfers/` (bank form or wallet form). Validated one by one (errors keyed
   * `items.<index>.<field>`) after the count, which is checked before any item is read.
   */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRANSFER_BULK_MAX_ITEMS)
  @IsObject({ each: true, message: 'each item must be an object' })
  items: CreateTransferRequest[];
}

export const TRANSFER_BATCH_ITEM_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type TransferBatchItemStatus = (typeof TRANSFER_BATCH_ITEM_STATUSES)[number];

/** Why an item made no transfer: the code and message `POST /transfers/` would have answered with. */
export class TransferBatchItemErrorResponse {
  /** @example "insufficient_wallet_balance" */
  code: string;
  message: string;
}

export class TransferBatchItemResponse {
  /** Position of the item in the request (0-based). */
  index: number;
  /** @example 25000 */
  amount: number;
  /** `succeeded`: its transfer was made (the amount reserved and sent); `failed`: no transfer was made (see `error`). */
  status: TransferBatchItemStatus;
  /** The item's transfer (`GET /transfers/{reference}/`); null until it is made, and for a failed item. */
  transfer_reference: string | null;
  /** The transfer's status now (`pending`, `success`, `failed`, `reversed`): whether the bank paid it. */
  transfer_status: TransferStatus | null;
  error: TransferBatchItemErrorResponse | null;
}

export class TransferBatchCountsResponse {
  pending: number;
  succeeded: number;
  failed: number;
}

export class TransferBatchResponse {
  /** Always `transfers`: what tells this batch from a payment batch in `batch.completed`. */
  type: 'transfers';
  /** @example "tbatch_5f0c3e1a9b2d4c6e8f10" */
  batch_reference: string;
  status: 'processing' | 'completed';
  currency: string;
  /** Number of items. */
  total: number;
  /** The sum of the items' amounts. @example 1250000 */
  total_amount: number;
  /** Items by status (`pending` counts the items still being worked on). */
  counts: TransferBatchCountsResponse;
  items: TransferBatchItemResponse[];
  created_at: string;
  /** When the last item was done. */
  completed_at: string | null;
}
