import type { Mode } from '@gateway/contracts';
import type { Currency } from '@gateway/platform';
import type { ProviderCapabilities } from './capabilities';
import type {
  AcceptDisputeInput,
  CaptureAuthorizationInput,
  ChargeAuthorizationInput,
  ContestDisputeInput,
  CreateDedicatedAccountInput,
  CreateTransferRecipientInput,
  DisputeEvidenceInput,
  FinalizeTransferInput,
  InitializedTransaction,
  InitializeHoldCheckoutInput,
  InitializeTransactionInput,
  InitiateTransferInput,
  ProviderBank,
  ProviderDedicatedAccount,
  ProviderDispute,
  ProviderDisputeEvidence,
  ProviderDisputeUpload,
  ProviderHold,
  ProviderHoldRelease,
  ProviderRefund,
  ProviderResolvedAccount,
  ProviderTransaction,
  ProviderTransfer,
  ProviderTransferRecipient,
  ProviderWebhook,
  RefundInput,
  ReserveAuthorizationInput,
  ResolveAccountInput,
  ResolveDisputeInput,
  SandboxCheckoutOutcome,
  SandboxDepositInput,
  SandboxDisputeInput,
} from './provider.types';

/**
 * The port to the upstream payment provider, and its Nest injection token. Every call takes the
 * mode first: test and live are separate provider accounts.
 *
 * Errors every method may throw:
 * - `DomainError('gateway_timeout')` (504): no answer in time. Retrying with the same reference is
 *   safe: the provider keeps our reference, so money moves once.
 * - `DomainError('provider_error')` (502): unreachable, 5xx, unparseable answer, or our credentials refused.
 * - `ProviderRejectedError` (a `DomainError('provider_error')`): a 4xx the provider explains
 *   (`providerMessage`, `providerStatus`), e.g. an unknown authorization or a refund above what is left.
 * - `DomainError('validation_error')`: an amount the provider cannot take (≤ 0 or above 2^53−1 minor units).
 * An issuer decline is not an error: it is a transaction (or hold) with status `failed`.
 *
 * What the mode's provider account offers is `capabilities(mode)`: domain code calls
 * `capabilities(mode).require(capability, currency)` before it writes anything, which throws
 * `DomainError('capability_not_supported')` (422) for a capability the account lacks.
 */
export abstract class PaymentProvider {
  /** What the mode's provider account offers, per capability and currency. */
  abstract capabilities(mode: Mode): ProviderCapabilities;

  /** Starts a hosted checkout for our `reference`. */
  abstract initializeTransaction(mode: Mode, input: InitializeTransactionInput): Promise<InitializedTransaction>;

  /** The transaction under our reference; null when the provider does not know it. */
  abstract verifyTransaction(mode: Mode, reference: string): Promise<ProviderTransaction | null>;

  /** Charges a saved, reusable authorization. A decline comes back with status `failed`. */
  abstract chargeAuthorization(mode: Mode, input: ChargeAuthorizationInput): Promise<ProviderTransaction>;

  /**
   * Places a hold (capability `holds`: ZAR only on Paystack); an issuer refusal comes back with
   * status `failed`. Retrying the same hold under the same reference answers the hold placed.
   */
  abstract reserveAuthorization(mode: Mode, input: ReserveAuthorizationInput): Promise<ProviderHold>;

  /**
   * Starts an authorize-only hosted checkout for a customer with no saved card (capability
   * `hold_checkouts`: the simulator only). Once the customer authorizes, the hold under our
   * `reference` is `reserved` — read it with `verifyAuthorization`, which then names the new card —
   * and is captured or released like any other. Repeating it answers the checkout already opened.
   */
  abstract initializeHoldCheckout(mode: Mode, input: InitializeHoldCheckoutInput): Promise<InitializedTransaction>;

  /** Captures (part of) a hold; the capture becomes a successful transaction under the hold's reference. */
  abstract captureAuthorization(mode: Mode, input: CaptureAuthorizationInput): Promise<ProviderHold>;

  /**
   * Releases a hold. Only the provider's documented answer is a release; a refusal
   * (`ProviderRejectedError`, status 400) says there is nothing to release; anything else — a
   * 404 from a wrong path included — is a `provider_error` to retry, never a released hold.
   */
  abstract releaseAuthorization(mode: Mode, reference: string, currency?: Currency): Promise<ProviderHoldRelease>;

  /** The hold under our reference; null when the provider does not know it. */
  abstract verifyAuthorization(mode: Mode, reference: string): Promise<ProviderHold | null>;

  /**
   * Refunds (part of) a successful transaction. Settles later: watch for the refund webhook.
   * Paystack takes no idempotency key here: calling it again refunds again, so a caller that does
   * not know whether a first call went through asks `listRefunds` first.
   */
  abstract refund(mode: Mode, input: RefundInput): Promise<ProviderRefund>;

  /** Every refund of the transaction at the provider (`GET /refund?transaction=…`), oldest first. */
  abstract listRefunds(mode: Mode, transactionReference: string): Promise<ProviderRefund[]>;

  /** The banks (and mobile-money operators) of a currency, every page. */
  abstract listBanks(mode: Mode, currency: Currency): Promise<ProviderBank[]>;

  /**
   * The name the bank holds for an account (`GET /bank/resolve`), to show or compare before a
   * recipient is created with it; null when the provider says it cannot resolve the account (an
   * unknown number or bank: Paystack's 422). An account number that is not digits, or a bank code
   * that is not a code, is `validation_error`, nothing sent.
   */
  abstract resolveAccount(mode: Mode, input: ResolveAccountInput): Promise<ProviderResolvedAccount | null>;

  /** A recipient of the currency's type (nuban NGN, ghipss GHS, basa ZAR, kepss KES, or `mobile_money`). */
  abstract createTransferRecipient(mode: Mode, input: CreateTransferRecipientInput): Promise<ProviderTransferRecipient>;

  /**
   * Pays out to a recipient under our reference (lowercase, 16+ characters). Settles later: watch
   * for the transfer webhook. `otp_required` means the provider account asks for an OTP: finalize
   * it, or disable the requirement on the account for automated payouts.
   */
  abstract initiateTransfer(mode: Mode, input: InitiateTransferInput): Promise<ProviderTransfer>;

  /** Releases a transfer waiting in `otp_required` with the OTP the provider sent to the business. */
  abstract finalizeTransfer(mode: Mode, input: FinalizeTransferInput): Promise<ProviderTransfer>;

  /** The transfer under our reference; null when the provider does not know it. */
  abstract verifyTransfer(mode: Mode, reference: string): Promise<ProviderTransfer | null>;

  /**
   * Finds or creates the provider customer for the e-mail (first name, last name and phone are
   * required: `validation_error` otherwise, nothing sent), then its dedicated virtual account.
   */
  abstract createDedicatedAccount(mode: Mode, input: CreateDedicatedAccountInput): Promise<ProviderDedicatedAccount>;

  /** Records evidence on a dispute. This alone does not contest it: see `contestDispute`. */
  abstract addDisputeEvidence(mode: Mode, providerDisputeId: string, evidence: DisputeEvidenceInput): Promise<ProviderDisputeEvidence>;

  /** Where to upload a document for the dispute, and the file name `resolveDispute` takes. */
  abstract disputeUploadUrl(mode: Mode, providerDisputeId: string, fileName: string): Promise<ProviderDisputeUpload>;

  /** The merchant's answer to a dispute (`PUT /dispute/:id/resolve`). */
  abstract resolveDispute(mode: Mode, providerDisputeId: string, input: ResolveDisputeInput): Promise<ProviderDispute>;

  /**
   * Contests a dispute: evidence, the document uploaded, then resolve `declined` with both. The
   * dispute is then `under_review` until the bank decides (`charge.dispute.resolve`).
   */
  abstract contestDispute(mode: Mode, providerDisputeId: string, input: ContestDisputeInput): Promise<ProviderDispute>;

  /** Accepts a dispute (`merchant-accepted`): the customer is refunded `refundAmount`. */
  abstract acceptDispute(mode: Mode, providerDisputeId: string, input: AcceptDisputeInput): Promise<ProviderDispute>;

  // Sandbox controls: test mode only (DomainError('test_mode_required') in live mode).

  /** Pays a checkout transaction as the customer would, with the test card for the outcome. */
  abstract completeSandboxCheckout(mode: Mode, reference: string, outcome: SandboxCheckoutOutcome): Promise<ProviderTransaction>;

  /** A bank transfer into a dedicated account: a successful NGN transaction plus `charge.success`. */
  abstract depositToDedicatedAccount(mode: Mode, input: SandboxDepositInput): Promise<ProviderTransaction>;

  /** Opens a chargeback on a successful transaction (`charge.dispute.create`). */
  abstract openSandboxDispute(mode: Mode, input: SandboxDisputeInput): Promise<ProviderDispute>;

  /** The bank's decision (`charge.dispute.resolve`): `merchant-accepted` = lost, `declined` = won. */
  abstract resolveSandboxDispute(mode: Mode, providerDisputeId: string, resolution: 'merchant-accepted' | 'declined'): Promise<ProviderDispute>;

  /**
   * Verifies `x-paystack-signature` (HMAC-SHA512 of the raw body) against each mode's secret in
   * constant time. Null only when no secret matches: an authentic body the gateway cannot read or
   * does not act on is `kind: 'other'` (with a `problem` when unreadable), never an error.
   */
  abstract parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderWebhook | null;
}
