import type { TransferRecipientResponse, TransferResponse } from '@gateway/contracts';
import type { TransferRecipientEntity } from './transfer-recipient.entity';
import type { TransferEntity } from './transfer.entity';

/** The only bridge from a recipient row to the wire; the account number shows its last 4 digits only. */
export function toTransferRecipientResponse(r: TransferRecipientEntity): TransferRecipientResponse {
  return {
    recipient_code: r.recipientCode,
    account_name: r.accountName,
    account_number_last4: r.accountNumber.slice(-4),
    bank_code: r.bankCode,
    bank_name: r.bankName,
    currency: r.currency,
    created_at: r.createdAt.toISOString(),
  };
}

/** A transfer with the recipient it pays. */
export interface TransferView {
  transfer: TransferEntity;
  recipient: TransferRecipientEntity;
}

/** The only bridge from a transfer to the wire (API responses and `transfer.*` events). */
export function toTransferResponse({ transfer: t, recipient }: TransferView): TransferResponse {
  return {
    reference: t.reference,
    status: t.status,
    amount: t.amount.toNumber(),
    currency: t.currency,
    source: t.source,
    recipient: toTransferRecipientResponse(recipient),
    reason: t.reason,
    failure_reason: t.failureReason,
    created_at: t.createdAt.toISOString(),
    completed_at: t.completedAt?.toISOString() ?? null,
  };
}
