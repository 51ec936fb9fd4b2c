import type { Mode } from '@gateway/contracts';
import type { Amount, Currency } from '@gateway/platform';

/**
 * What the gateway knows about the upstream provider, in domain terms: `Amount` in the major unit,
 * our own references, and the provider's internal identifiers only in `provider*` fields (they go to
 * `provider_*` columns and never into a merchant-visible response, webhook or log line).
 */

/** Not terminal: the provider's `abandoned`/`ongoing`/`pending`/… all read as `pending`. */
export type ProviderTransactionStatus = 'pending' | 'success' | 'failed' | 'abandoned';

/** A card (or bank-transfer payer) the provider saved on a charge. */
export interface ProviderAuthorization {
  /** The provider's authorization code (`AUTH_…`): store it in a `provider_*` column only. */
  code: string;
  reusable: boolean;
  /** Stable per card within one provider account: recognises a card already saved. */
  signature: string | null;
  last4: string | null;
  brand: string | null;
  expMonth: string | null;
  expYear: string | null;
  bank: string | null;
  channel: string | null;
}

export interface ProviderTransaction {
  /** The provider's numeric transaction id, as a string. */
  providerId: string;
  /** Our reference: the provider keeps the one we send. */
  reference: string;
  status: ProviderTransactionStatus;
  amount: Amount;
  currency: Currency;
  /** The provider's fee; null until the charge succeeds. */
  fee: Amount | null;
  paidAt: Date | null;
  /** The issuer's answer ("Approved", "Declined", "Insufficient Funds"). */
  gatewayResponse: string | null;
  authorization: ProviderAuthorization | null;
  /** The provider's customer code (`CUS_…`). */
  customerCode: string | null;
  channel: string | null;
}

export interface InitializeTransactionInput {
  reference: string;
  email: string;
  amount: Amount;
  currency: Currency;
  /** Where the hosted checkout sends the customer back (with `?reference=…`). */
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

/** Both values are the provider's: keep them in `provider_*` columns. */
export interface InitializedTransaction {
  authorizationUrl: string;
  accessCode: string;
}

export interface ChargeAuthorizationInput {
  reference: string;
  /** The provider's authorization code (from `ProviderAuthorization.code`). */
  authorizationCode: string;
  email: string;
  amount: Amount;
  currency: Currency;
  metadata?: Record<string, unknown>;
}

export type ReserveAuthorizationInput = Omit<ChargeAuthorizationInput, 'metadata'>;

export type ProviderHoldStatus = 'reserved' | 'captured' | 'released' | 'failed';

/** A hold (pre-authorization) on a saved card, named by our reference. */
export interface ProviderHold {
  reference: string;
  status: ProviderHoldStatus;
  /** Held amount; once captured, the captured amount. */
  amount: Amount;
  reservedAmount: Amount;
  currency: Currency;
  /** Provider fee of the capture; null before. */
  fee: Amount | null;
  gatewayResponse: string | null;
}

export interface CaptureAuthorizationInput {
  reference: string;
  /** At most the reserved amount; default all of it. */
  amount?: Amount;
}

export type ProviderRefundStatus = 'pending' | 'processed' | 'failed';

export interface RefundInput {
  /** Our reference of the transaction being refunded. */
  transactionReference: string;
  /** Default: what is left to refund. */
  amount?: Amount;
  /** Our refund reference: sent as the provider's idempotency key, so a retry never refunds twice. */
  reference?: string;
}

export interface ProviderRefund {
  /** The provider's refund id, as a string. */
  providerId: string;
  status: ProviderRefundStatus;
  amount: Amount;
  currency: Currency;
  transactionReference: string;
}

export interface CreateTransferRecipientInput {
  name: string;
  accountNumber: string;
  bankCode: string;
  currency: Currency;
}

export interface ProviderTransferRecipient {
  /** The provider's recipient code (`RCP_…`). */
  providerRecipientCode: string;
  accountName: string;
  accountNumber: string;
  bankCode: string;
  bankName: string | null;
}

export interface InitiateTransferInput {
  reference: string;
  amount: Amount;
  currency: Currency;
  /** `ProviderTransferRecipient.providerRecipientCode`. */
  recipientCode: string;
  reason?: string;
}

export type ProviderTransferStatus = 'pending' | 'success' | 'failed' | 'reversed';

export interface ProviderTransfer {
  /** The provider's transfer code (`TRF_…`). */
  providerTransferCode: string;
  reference: string;
  status: ProviderTransferStatus;
  amount: Amount;
  currency: Currency;
  /** Why it failed, when it did. */
  failureReason: string | null;
  transferredAt: Date | null;
}

export interface ProviderBank {
  name: string;
  code: string;
  slug: string;
  currency: string;
}

export interface CreateDedicatedAccountInput {
  customerEmail: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  /** Provider bank slug (`test-bank`, `wema-bank`, …); the provider's default when omitted. */
  preferredBank?: string;
}

export interface ProviderDedicatedAccount {
  /** The provider's dedicated-account id, as a string. */
  providerId: string;
  /** The provider's customer code (`CUS_…`). */
  providerCustomerCode: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
}

export interface SandboxDepositInput {
  accountNumber: string;
  /** NGN: dedicated accounts are naira accounts. */
  amount: Amount;
  senderName?: string;
  senderBank?: string;
  senderAccountNumber?: string;
  narration?: string;
}

export type SandboxCheckoutOutcome = 'success' | 'declined' | 'insufficient_funds';

export interface SandboxDisputeInput {
  transactionReference: string;
  /** At most the transaction amount; default all of it. */
  amount?: Amount;
  reason?: string;
}

/** Our dispute statuses; the provider's `resolution` decides won (chargeback declined) or lost. */
export type ProviderDisputeStatus = 'open' | 'under_review' | 'won' | 'lost';

export interface ProviderDispute {
  /** The provider's dispute id, as a string. */
  providerId: string;
  transactionReference: string;
  status: ProviderDisputeStatus;
  amount: Amount;
  currency: Currency;
  reason: string | null;
  dueAt: Date | null;
  resolvedAt: Date | null;
}

export interface DisputeEvidenceInput {
  customerEmail: string;
  customerName: string;
  customerPhone: string;
  serviceDetails: string;
  deliveryAddress?: string;
  deliveryDate?: string;
}

/** A verified provider webhook: which mode's secret signed it, and the object it announces. */
export type ProviderWebhook = { mode: Mode; event: string } & (
  | { kind: 'charge'; data: ProviderTransaction }
  | { kind: 'refund'; data: ProviderRefund }
  | { kind: 'transfer'; data: ProviderTransfer }
  | { kind: 'dispute'; data: ProviderDispute }
  /** Authentic, but an event the gateway does not act on: acknowledge and ignore. */
  | { kind: 'other'; data: null }
);
