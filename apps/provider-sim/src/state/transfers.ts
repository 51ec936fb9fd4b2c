import type { RecipientType } from '../banks';
import type { Currency, MinorUnits } from '../money';

export interface RecipientRecord {
  id: number;
  recipientCode: string;
  type: RecipientType;
  name: string;
  accountNumber: string;
  accountName: string;
  bankCode: string;
  bankName: string;
  currency: Currency;
  createdAt: Date;
}

/**
 * Paystack's transfer statuses used here: `otp` (waiting for /transfer/finalize_transfer, when
 * the account requires an OTP for transfers) → pending → success | failed; a `success` the bank
 * sends back becomes `reversed` (Paystack's `transfer.reversed` sample keeps its `transferred_at`).
 */
export type TransferStatus = 'otp' | 'pending' | 'success' | 'failed' | 'reversed';

export interface TransferRecord {
  id: number;
  transferCode: string;
  reference: string;
  amount: MinorUnits;
  currency: Currency;
  recipientCode: string;
  reason: string | null;
  status: TransferStatus;
  failureReason: string | null;
  transferredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export class RecipientStore {
  private readonly byCode = new Map<string, RecipientRecord>();

  add(recipient: RecipientRecord): RecipientRecord {
    this.byCode.set(recipient.recipientCode, recipient);
    return recipient;
  }

  find(recipientCode: string): RecipientRecord | undefined {
    return this.byCode.get(recipientCode);
  }

  /** Paystack returns the existing recipient when the same bank account is added again. */
  findByAccount(bankCode: string, accountNumber: string): RecipientRecord | undefined {
    for (const recipient of this.byCode.values()) {
      if (recipient.bankCode === bankCode && recipient.accountNumber === accountNumber) return recipient;
    }
    return undefined;
  }
}

export class TransferStore {
  private readonly byReference = new Map<string, TransferRecord>();

  add(transfer: TransferRecord): TransferRecord {
    this.byReference.set(transfer.reference, transfer);
    return transfer;
  }

  find(reference: string): TransferRecord | undefined {
    return this.byReference.get(reference);
  }

  findByCode(transferCode: string): TransferRecord | undefined {
    for (const transfer of this.byReference.values()) if (transfer.transferCode === transferCode) return transfer;
    return undefined;
  }
}
