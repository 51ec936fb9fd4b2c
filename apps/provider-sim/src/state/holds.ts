import type { Currency, MinorUnits } from '../money';

/**
 * A preauthorization (hold) on a reusable card authorization.
 * reserved → captured | released; a reservation the issuer refuses is "failed".
 */
export type HoldStatus = 'reserved' | 'captured' | 'released' | 'failed';

export interface HoldRecord {
  reference: string;
  authorizationCode: string;
  email: string;
  amount: MinorUnits;
  currency: Currency;
  status: HoldStatus;
  gatewayResponse: string;
  capturedAmount: MinorUnits | null;
  fees: MinorUnits | null;
  createdAt: Date;
  updatedAt: Date;
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
