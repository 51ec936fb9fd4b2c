import type { Currency, MinorUnits } from '../money';

/**
 * Paystack's dispute statuses. A new dispute waits for the merchant. Evidence alone changes
 * nothing: the merchant contests with `PUT /dispute/:id/resolve` (`declined`, with evidence and
 * an uploaded file), after which it waits for the bank, whose decision (simulated through
 * /sim/disputes/:id/resolve) resolves it; or accepts (`merchant-accepted`), which resolves it.
 */
export type DisputeStatus = 'awaiting-merchant-feedback' | 'awaiting-bank-feedback' | 'resolved';

/** Paystack's resolutions: the merchant accepted the chargeback, or it was declined in the merchant's favour. */
export const DISPUTE_RESOLUTIONS = ['merchant-accepted', 'declined'] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

export interface DisputeEvidence {
  id: number;
  customerEmail: string;
  customerName: string;
  customerPhone: string;
  serviceDetails: string;
  deliveryAddress: string | null;
  deliveryDate: string | null;
  createdAt: Date;
}

export interface DisputeHistoryEntry {
  status: DisputeStatus;
  by: 'customer' | 'merchant' | 'bank';
  createdAt: Date;
}

export interface DisputeRecord {
  id: number;
  transactionReference: string;
  refundAmount: MinorUnits;
  currency: Currency;
  status: DisputeStatus;
  resolution: DisputeResolution | null;
  category: 'chargeback';
  reason: string | null;
  evidence: DisputeEvidence | null;
  /** File names handed out by `GET /dispute/:id/upload_url`, and whether the file arrived. */
  uploads: Map<string, { uploaded: boolean }>;
  /** What the merchant wrote when resolving. */
  note: string | null;
  dueAt: Date;
  resolvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  history: DisputeHistoryEntry[];
}

export class DisputeStore {
  private readonly byId = new Map<number, DisputeRecord>();

  add(dispute: DisputeRecord): DisputeRecord {
    this.byId.set(dispute.id, dispute);
    return dispute;
  }

  find(id: number): DisputeRecord | undefined {
    return this.byId.get(id);
  }

  findUnresolvedFor(transactionReference: string): DisputeRecord | undefined {
    for (const dispute of this.byId.values()) {
      if (dispute.transactionReference === transactionReference && dispute.status !== 'resolved') return dispute;
    }
    return undefined;
  }
}
