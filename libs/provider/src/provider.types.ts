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
  /** What the customer paid: above `requestedAmount` when the customer bears the fees. */
  amount: Amount;
  /**
   * What we asked for (Paystack's `requested_amount`), when the answer says it. It differs from
   * `amount` when the customer bears the fees (a dashboard setting): the payment is worth this.
   */
  requestedAmount?: Amount | null;
  currency: Currency;
  /** The provider's fee; null until the charge succeeds. Includes the part the customer paid, if any. */
  fee: Amount | null;
  paidAt: Date | null;
  /** The issuer's answer ("Approved", "Declined", "Insufficient Funds"). */
  gatewayResponse: string | null;
  authorization: ProviderAuthorization | null;
  /** The provider's customer code (`CUS_…`). */
  customerCode: string | null;
  channel: string | null;
  /** A bank transfer into a dedicated account (channel `dedicated_nuban`): who sent it, and where to. */
  bankTransfer?: ProviderBankTransfer | null;
}

/**
 * Paystack reports a deposit into a dedicated account on the transaction's `authorization`
 * (`receiver_bank_account_number`, `sender_*`) and, on some payloads, in `metadata.receiver_account_number`
 * or `dedicated_account.account_number`: the receiving number is what matches it to an account.
 */
export interface ProviderBankTransfer {
  /** The dedicated account the money was sent to; null when the payload does not say. */
  receiverAccountNumber: string | null;
  senderName: string | null;
  senderBank: string | null;
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

/** `pending`: an authorize-only checkout (initializeHoldCheckout) the customer has not authorized yet. */
export type ProviderHoldStatus = 'pending' | 'reserved' | 'captured' | 'released' | 'failed';

/**
 * A hold (pre-authorization) on a saved card, named by our reference. Paystack's `authorized`
 * reads as `reserved`; a reservation the issuer refuses is `failed` (Paystack answers it with a 400).
 */
export interface ProviderHold {
  reference: string;
  status: ProviderHoldStatus;
  /** Held amount; once captured, the captured amount. */
  amount: Amount;
  /** The amount reserved; null when the answer does not say (a capture answers with its transaction). */
  reservedAmount: Amount | null;
  currency: Currency;
  /** Provider fee of the capture; null before. */
  fee: Amount | null;
  gatewayResponse: string | null;
  /** The card held, when the answer names one (verify does): how a hold checkout's new card is saved. */
  authorization?: ProviderAuthorization | null;
}

/** An authorize-only hosted checkout for a customer with no saved card: the hold is placed once they authorize. */
export interface InitializeHoldCheckoutInput {
  /** Our reference: the hold's, once authorized. */
  reference: string;
  email: string;
  amount: Amount;
  currency: Currency;
}

export interface CaptureAuthorizationInput {
  reference: string;
  /** At most the reserved amount; default all of it. */
  amount?: Amount;
  /** The hold's currency, sent as Paystack's Capture Preauthorization documents it. */
  currency?: Currency;
}

/** Release Preauthorization answers only the reference and its new status. */
export interface ProviderHoldRelease {
  reference: string;
  status: 'released';
}

export type ProviderRefundStatus = 'pending' | 'processed' | 'failed';

export interface RefundInput {
  /** Our reference of the transaction being refunded. */
  transactionReference: string;
  /** Default: what is left to refund. */
  amount?: Amount;
}

export interface ProviderRefund {
  /** The provider's refund id, as a string. */
  providerId: string;
  status: ProviderRefundStatus;
  amount: Amount;
  currency: Currency;
  transactionReference: string;
}

/**
 * What a `refund.*` webhook says (Paystack guide "Refunds", doc-code-snippets
 * `dist/doc/payments/refunds/events.js`): the refunded transaction's reference, the status and the
 * amount — no refund id, and `refund_reference` is the processor's (null until it has one), never
 * ours. So a notice is matched by asking the provider for the transaction's refunds.
 */
export interface ProviderRefundNotice {
  /** Our reference of the refunded transaction. */
  transactionReference: string;
  status: ProviderRefundStatus;
  /** Null when the payload carries none. */
  amount: Amount | null;
  currency: Currency | null;
  /** The processor's reference for the refund (e.g. an ARN); null while pending. */
  refundReference: string | null;
}

/**
 * Paystack's recipient types (guide "Creating Transfer Recipients"): bank accounts are `nuban`
 * (NGN), `ghipss` (GHS), `basa` (ZAR), `kepss` (KES); `mobile_money` is a wallet (GHS, KES).
 */
export type ProviderRecipientType = 'nuban' | 'ghipss' | 'basa' | 'kepss' | 'mobile_money';

export interface CreateTransferRecipientInput {
  name: string;
  /** The bank account number, or the wallet's phone number for `mobile_money`. */
  accountNumber: string;
  /** `ProviderBank.code` of a bank (or telco) listed for the currency. */
  bankCode: string;
  currency: Currency;
  /** Default: the currency's bank-account type; `mobile_money` (GHS, KES) for a wallet, as `ProviderBank.type` says. */
  type?: ProviderRecipientType;
}

export interface ProviderTransferRecipient {
  /** The provider's recipient code (`RCP_…`). */
  providerRecipientCode: string;
  accountName: string;
  accountNumber: string;
  bankCode: string;
  bankName: string | null;
}

/** A bank account to look up before paying into it (Paystack's Resolve Account Number). */
export interface ResolveAccountInput {
  /** Digits only (else validation_error, nothing sent): a NUBAN is 10. */
  accountNumber: string;
  /** `ProviderBank.code` of the account's bank. */
  bankCode: string;
}

/** The name the account's bank holds for it, as the provider resolved it (upper-case on Paystack). */
export interface ProviderResolvedAccount {
  accountNumber: string;
  accountName: string;
}

export interface InitiateTransferInput {
  /** Paystack's rule: lowercase letters, digits, `-` and `_`, at least 16 characters (else validation_error, nothing sent). */
  reference: string;
  amount: Amount;
  currency: Currency;
  /** `ProviderTransferRecipient.providerRecipientCode`. */
  recipientCode: string;
  reason?: string;
}

/**
 * `otp_required`: Paystack holds the transfer until `finalizeTransfer` with the OTP sent to the
 * business (the account requires an OTP for transfers). Automated payouts need that requirement
 * disabled on the Paystack dashboard; until then nothing is paid out.
 */
export type ProviderTransferStatus = 'otp_required' | 'pending' | 'success' | 'failed' | 'reversed';

export interface FinalizeTransferInput {
  /** `ProviderTransfer.providerTransferCode`. */
  transferCode: string;
  otp: string;
}

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
  /** The recipient type to pay into it with (`nuban`, `mobile_money`, …). */
  type: ProviderRecipientType | string;
}

/** The provider's bank account for a customer needs their first name, last name and phone. */
export interface CreateDedicatedAccountInput {
  customerEmail: string;
  firstName: string;
  lastName: string;
  phone: string;
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
  /** ISO 8601 date (YYYY-MM-DD). */
  deliveryDate?: string;
}

/** The evidence recorded at the provider. Recording evidence does not contest a dispute. */
export interface ProviderDisputeEvidence {
  /** The provider's evidence id, passed to `resolveDispute`. */
  providerEvidenceId: string;
}

/** Where to PUT a document for a dispute, and the file name to resolve with. */
export interface ProviderDisputeUpload {
  uploadUrl: string;
  fileName: string;
}

/** A document for the dispute (a receipt, a proof of delivery, a proof of refund). */
export interface DisputeDocument {
  content: Uint8Array;
  contentType: string;
  /** A name for the provider's records, e.g. `receipt.pdf`. */
  fileName: string;
}

/**
 * `PUT /dispute/:id/resolve`: `declined` contests the chargeback (evidence needed), after which
 * the bank decides; `merchant-accepted` accepts it and refunds `refundAmount`.
 */
export interface ResolveDisputeInput {
  resolution: 'merchant-accepted' | 'declined';
  message: string;
  /** What the customer gets back: zero when contesting. */
  refundAmount: Amount;
  /** `ProviderDisputeUpload.fileName`, after the document was uploaded. */
  uploadedFileName: string;
  providerEvidenceId?: string;
}

/** Everything a contest takes: evidence, a document, and a note for the provider. */
export interface ContestDisputeInput {
  evidence: DisputeEvidenceInput;
  document: DisputeDocument;
  message: string;
}

/** Accepting a chargeback: what is refunded, why, and a document (the provider requires one). */
export interface AcceptDisputeInput {
  refundAmount: Amount;
  message: string;
  document: DisputeDocument;
}

/** A verified provider webhook: which mode's secret signed it, and the object it announces. */
export type ProviderWebhook = { mode: Mode; event: string } & (
  | { kind: 'charge'; data: ProviderTransaction }
  | { kind: 'refund'; data: ProviderRefundNotice }
  | { kind: 'transfer'; data: ProviderTransfer }
  | { kind: 'dispute'; data: ProviderDispute }
  /** The simulator's `preauthorization.authorized`: a customer authorized a hold checkout. */
  | { kind: 'hold'; data: ProviderHold }
  /**
   * Authentic, but an event the gateway does not act on, or one whose payload it could not read
   * (`problem` says why): acknowledge and log, never refuse (the provider would retry forever).
   */
  | { kind: 'other'; data: null; problem?: string }
);
