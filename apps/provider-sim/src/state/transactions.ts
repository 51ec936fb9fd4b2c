import type { Metadata } from '../http/validation';
import type { Currency, MinorUnits } from '../money';

/**
 * Paystack's transaction statuses as reported by /transaction/verify:
 * - abandoned: initialized, the customer has not attempted payment yet
 *   (Paystack reports fresh transactions this way; it is not terminal),
 * - ongoing: the customer opened the hosted checkout but has not paid,
 * - success / failed: the last payment attempt's outcome. A failed checkout
 *   may still be retried with another card; success is final.
 */
export type TransactionStatus = 'abandoned' | 'ongoing' | 'success' | 'failed';

/** `preauth`: a captured preauthorization, as Paystack reports it. */
export type TransactionChannel = 'card' | 'dedicated_nuban' | 'preauth';

/** How the transaction came to exist — decides which idempotency rules apply to its reference. */
export type TransactionOrigin = 'checkout' | 'charge_authorization' | 'preauthorization' | 'dedicated_account_deposit';

export interface TransactionRecord {
  id: number;
  reference: string;
  origin: TransactionOrigin;
  amount: MinorUnits;
  currency: Currency;
  email: string;
  customerCode: string;
  status: TransactionStatus;
  gatewayResponse: string | null;
  channel: TransactionChannel;
  /** The provider's fee in minor units, set once the charge succeeds. */
  fees: MinorUnits | null;
  /** The customer paid `fees` on top of `amount` (the account passes its fees on: `customer_bears_fees`). */
  feesBorneByCustomer?: boolean;
  paidAt: Date | null;
  createdAt: Date;
  metadata: Metadata | null;
  callbackUrl: string | null;
  /** Hosted-checkout access code (checkout transactions only). */
  accessCode: string | null;
  /** The authorization used or produced by this charge, when there is one. */
  authorizationCode: string | null;
  /** Dedicated virtual account credited (deposit transactions only). */
  dedicatedAccountNumber: string | null;
}

export class TransactionStore {
  private readonly byReference = new Map<string, TransactionRecord>();
  private readonly byId = new Map<number, TransactionRecord>();

  add(transaction: TransactionRecord): TransactionRecord {
    this.byReference.set(transaction.reference, transaction);
    this.byId.set(transaction.id, transaction);
    return transaction;
  }

  findByReference(reference: string): TransactionRecord | undefined {
    return this.byReference.get(reference);
  }

  findById(id: number): TransactionRecord | undefined {
    return this.byId.get(id);
  }
}
