import type { Mode } from '@gateway/contracts';
import type {
  CaptureAuthorizationInput,
  ChargeAuthorizationInput,
  CreateDedicatedAccountInput,
  CreateTransferRecipientInput,
  DisputeEvidenceInput,
  InitializedTransaction,
  InitializeTransactionInput,
  InitiateTransferInput,
  ProviderBank,
  ProviderDedicatedAccount,
  ProviderDispute,
  ProviderHold,
  ProviderRefund,
  ProviderTransaction,
  ProviderTransfer,
  ProviderTransferRecipient,
  ProviderWebhook,
  RefundInput,
  ReserveAuthorizationInput,
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
 */
export abstract class PaymentProvider {
  /** Starts a hosted checkout for our `reference`. */
  abstract initializeTransaction(mode: Mode, input: InitializeTransactionInput): Promise<InitializedTransaction>;

  /** The transaction under our reference; null when the provider does not know it. */
  abstract verifyTransaction(mode: Mode, reference: string): Promise<ProviderTransaction | null>;

  /** Charges a saved, reusable authorization. A decline comes back with status `failed`. */
  abstract chargeAuthorization(mode: Mode, input: ChargeAuthorizationInput): Promise<ProviderTransaction>;

  /** Places a hold; an issuer refusal comes back with status `failed`. */
  abstract reserveAuthorization(mode: Mode, input: ReserveAuthorizationInput): Promise<ProviderHold>;

  /** Captures (part of) a hold; the capture becomes a successful transaction under the hold's reference. */
  abstract captureAuthorization(mode: Mode, input: CaptureAuthorizationInput): Promise<ProviderHold>;

  abstract releaseAuthorization(mode: Mode, reference: string): Promise<ProviderHold>;

  /** Refunds (part of) a successful transaction. Settles later: watch for the refund webhook. */
  abstract refund(mode: Mode, input: RefundInput): Promise<ProviderRefund>;

  abstract listBanks(mode: Mode): Promise<ProviderBank[]>;

  abstract createTransferRecipient(mode: Mode, input: CreateTransferRecipientInput): Promise<ProviderTransferRecipient>;

  /** Pays out to a recipient under our reference. Settles later: watch for the transfer webhook. */
  abstract initiateTransfer(mode: Mode, input: InitiateTransferInput): Promise<ProviderTransfer>;

  /** The transfer under our reference; null when the provider does not know it. */
  abstract verifyTransfer(mode: Mode, reference: string): Promise<ProviderTransfer | null>;

  /** Finds or creates the provider customer for the e-mail, then its dedicated virtual account. */
  abstract createDedicatedAccount(mode: Mode, input: CreateDedicatedAccountInput): Promise<ProviderDedicatedAccount>;

  abstract submitDisputeEvidence(mode: Mode, providerDisputeId: string, evidence: DisputeEvidenceInput): Promise<ProviderDispute>;

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
   * constant time. Null when no secret matches or the body is not a provider event.
   */
  abstract parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderWebhook | null;
}
