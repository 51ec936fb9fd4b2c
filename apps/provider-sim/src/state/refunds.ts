import type { Currency, MinorUnits } from '../money';

/** pending → processed | failed. Failed refunds give the amount back to the refundable balance. */
export type RefundStatus = 'pending' | 'processed' | 'failed';

export interface RefundRecord {
  id: number;
  transactionReference: string;
  transactionId: number;
  amount: MinorUnits;
  currency: Currency;
  status: RefundStatus;
  merchantNote: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class RefundStore {
  private readonly byId = new Map<number, RefundRecord>();

  add(refund: RefundRecord): RefundRecord {
    this.byId.set(refund.id, refund);
    return refund;
  }

  find(id: number): RefundRecord | undefined {
    return this.byId.get(id);
  }

  /** The transaction's refunds, oldest first. */
  ofTransaction(transactionReference: string): RefundRecord[] {
    return [...this.byId.values()].filter((refund) => refund.transactionReference === transactionReference);
  }

  /** Everything already promised back to the customer: pending and processed refunds. */
  committedAmountFor(transactionReference: string): MinorUnits {
    let total = 0;
    for (const refund of this.byId.values()) {
      if (refund.transactionReference === transactionReference && refund.status !== 'failed') total += refund.amount;
    }
    return total;
  }
}
