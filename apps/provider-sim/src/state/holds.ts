import type { Currency, MinorUnits } from '../money';

/**
 * A preauthorization (hold) on a reusable card authorization, with Paystack's statuses:
 * authorized → captured | released; a reservation the issuer refuses is "failed". `pending` is
 * the simulator's authorize-only checkout (POST /preauthorization/initialize): opened, the
 * customer has not authorized yet; releasing it closes the checkout.
 */
export type HoldStatus = 'pending' | 'authorized' | 'captured' | 'released' | 'failed';

export interface HoldRecord {
  id: number;
  reference: string;
  /** The card held; null while an authorize-only checkout awaits the customer. */
  authorizationCode: string | null;
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
  /** Authorize-only checkout: its access code (null for holds reserved on a saved card). */
  accessCode?: string | null;
  authorizedAt?: Date | null;
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
