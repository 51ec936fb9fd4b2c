import type { Currency, MinorUnits } from '../money';

/**
 * A preauthorization (hold) on a reusable card authorization, with Paystack's statuses:
 * authorized → captured | released; a reservation the issuer refuses is "failed".
 */
export type HoldStatus = 'authorized' | 'captured' | 'released' | 'failed';

export interface HoldRecord {
  id: number;
  reference: string;
  authorizationCode: string;
  email: string;
  amount: MinorUnits;
  currency: Currency;
  status: HoldStatus;
  /** The issuer's answer ("Approved", "Insufficient Funds"). */
  gatewayResponse: string;
  capturedAmount: MinorUnits | null;
  fees: MinorUnits | null;
  createdAt: Date;
  capturedAt: Date | null;
  releasedAt: Date | null;
}

export class HoldStore {
  private readonly byReference = new Map<string, HoldRecord>();

  add(hold: HoldRecord): HoldRecord {
    this.byReference.set(hold.reference, hold);
    return hold;
  }

  find(reference: string): HoldRecord | undefined {
    return this.byReference.get(reference);
  }
}
