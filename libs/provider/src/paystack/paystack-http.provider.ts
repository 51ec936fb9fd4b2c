import type { Mode } from '@gateway/contracts';
import { Amount, type Currency, DomainError, type ProviderAccountConfig } from '@gateway/platform';
import { capabilitiesFor, type ProviderCapabilities } from '../capabilities';
import { PaymentProvider } from '../payment-provider';
import type {
  AcceptDisputeInput,
  CaptureAuthorizationInput,
  ChargeAuthorizationInput,
  ContestDisputeInput,
  CreateDedicatedAccountInput,
  CreateTransferRecipientInput,
  DisputeDocument,
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
} from '../provider.types';
import { ProviderRejectedError } from '../provider-rejected.error';
import { addEvidence, resolve, uploadDocument, uploadUrl } from './paystack-disputes';
import { captureHold, initializeHoldCheckout, releaseHold, reserveHold, verifyHold } from './paystack-holds';
import { PaystackHttpClient, type ProviderBreakerOptions } from './paystack-http-client';
import { createRecipient, finalizeTransfer, initiateTransfer, listBanks, resolveAccount, verifyTransfer } from './paystack-transfers';
import { toProviderDedicatedAccount, toProviderDispute, toProviderTransaction } from './paystack.mapper';
import { createRefund, listRefunds } from './paystack-refunds';
import { parseVerifiedWebhook, signingMode } from './paystack-webhook';
import { asObject, requiredString, toWireMinor } from './paystack-wire';

export interface PaystackHttpProviderOptions {
  /** Per mode: where the account is, its secret, its profile and enabled currencies. */
  accounts: Readonly<Record<Mode, ProviderAccountConfig>>;
  timeoutMs: number;
  /** The circuit breaker in front of each mode's account (see PaystackHttpClient); default: 10 s cool-down. */
  breaker?: ProviderBreakerOptions;
  /** Sockets open to a provider origin at once, at most (default DEFAULT_PROVIDER_MAX_SOCKETS). */
  maxSocketsPerOrigin?: number;
  /** Banks asked for per page of `GET /bank` (default 100). */
  bankPageSize?: number;
  /** Replaces what a mode's profile and currencies advertise (tests that prove refusals). */
  capabilities?: Partial<Record<Mode, ProviderCapabilities>>;
}

const DEFAULT_BANK_PAGE_SIZE = 100;
const WIRE_NAMES = { firstName: 'first_name', lastName: 'last_name', phone: 'phone' } as const;

/**
 * PaymentProvider over Paystack's HTTP API (or the simulator, which speaks the same wire format).
 * Our reference is sent as the provider's reference, so a retry after a timeout finds or repeats
 * the same object instead of moving money twice. Refusals are told apart by Paystack's error
 * `code` and `type`, never by message text. Holds, transfers and disputes live in their own files.
 */
export class PaystackHttpProvider extends PaymentProvider {
  private readonly http: PaystackHttpClient;
  private readonly capabilityByMode: Readonly<Record<Mode, ProviderCapabilities>>;

  constructor(private readonly options: PaystackHttpProviderOptions) {
    super();
    this.http = new PaystackHttpClient(options.accounts, options.timeoutMs, options.breaker, options.maxSocketsPerOrigin);
    const of = (mode: Mode) => options.capabilities?.[mode] ?? capabilitiesFor(options.accounts[mode].profile, options.accounts[mode].currencies);
    this.capabilityByMode = { test: of('test'), live: of('live') };
  }

  capabilities(mode: Mode): ProviderCapabilities {
    return this.capabilityByMode[mode];
  }

  async initializeTransaction(mode: Mode, input: InitializeTransactionInput): Promise<InitializedTransaction> {
    const data = asObject(
      await this.http.send(mode, {
        operation: 'transaction.initialize',
        method: 'POST',
        path: '/transaction/initialize',
        body: {
          reference: input.reference,
          email: input.email,
          amount: toWireMinor(input.amount),
          currency: input.currency,
          ...(input.callbackUrl !== undefined && { callback_url: input.callbackUrl }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        },
      }),
      'initialize',
    );
    return { authorizationUrl: requiredString(data, 'authorization_url'), accessCode: requiredString(data, 'access_code') };
  }

  async verifyTransaction(mode: Mode, reference: string): Promise<ProviderTransaction | null> {
    const data = await this.http.sendOrNull(mode, {
      operation: 'transaction.verify',
      method: 'GET',
      path: `/transaction/verify/${encodeURIComponent(reference)}`,
    });
    return data === null ? null : toProviderTransaction(data);
  }

  /**
   * Paystack refuses a reused reference outright (400, code `duplicate_reference`), also when
   * it is our own retry after a timeout whose first call went through. So on that refusal the
   * reference is verified and, when it is this very charge (same amount, currency and card), its
   * outcome is the answer: a retry never charges twice and never reports a false failure. Anything
   * else under the reference keeps the refusal.
   */
  async chargeAuthorization(mode: Mode, input: ChargeAuthorizationInput): Promise<ProviderTransaction> {
    try {
      const data = await this.http.send(mode, {
        operation: 'transaction.charge_authorization',
        method: 'POST',
        path: '/transaction/charge_authorization',
        body: {
          reference: input.reference,
          authorization_code: input.authorizationCode,
          email: input.email,
          amount: toWireMinor(input.amount),
          currency: input.currency,
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        },
      });
      return toProviderTransaction(data);
    } catch (error) {
      if (!(error instanceof ProviderRejectedError) || !error.isDuplicateReference) throw error;
      const earlier = await this.verifyTransaction(mode, input.reference);
      if (!earlier || !isSameCharge(earlier, input)) throw error;
      return earlier;
    }
  }

  reserveAuthorization(mode: Mode, input: ReserveAuthorizationInput): Promise<ProviderHold> {
    return reserveHold(this.http, mode, input);
  }

  initializeHoldCheckout(mode: Mode, input: InitializeHoldCheckoutInput): Promise<InitializedTransaction> {
    return initializeHoldCheckout(this.http, mode, input);
  }

  captureAuthorization(mode: Mode, input: CaptureAuthorizationInput): Promise<ProviderHold> {
    return captureHold(this.http, mode, input);
  }

  releaseAuthorization(mode: Mode, reference: string, currency?: Currency): Promise<ProviderHoldRelease> {
    return releaseHold(this.http, mode, reference, currency);
  }

  verifyAuthorization(mode: Mode, reference: string): Promise<ProviderHold | null> {
    return verifyHold(this.http, mode, reference);
  }

  refund(mode: Mode, input: RefundInput): Promise<ProviderRefund> {
    return createRefund(this.http, mode, input);
  }

  listRefunds(mode: Mode, transactionReference: string): Promise<ProviderRefund[]> {
    return listRefunds(this.http, mode, transactionReference);
  }

  listBanks(mode: Mode, currency: Currency): Promise<ProviderBank[]> {
    return listBanks(this.http, mode, currency, this.options.bankPageSize ?? DEFAULT_BANK_PAGE_SIZE);
  }

  resolveAccount(mode: Mode, input: ResolveAccountInput): Promise<ProviderResolvedAccount | null> {
    return resolveAccount(this.http, mode, input);
  }

  createTransferRecipient(mode: Mode, input: CreateTransferRecipientInput): Promise<ProviderTransferRecipient> {
    return createRecipient(this.http, mode, input);
  }

  initiateTransfer(mode: Mode, input: InitiateTransferInput): Promise<ProviderTransfer> {
    return initiateTransfer(this.http, mode, input);
  }

  finalizeTransfer(mode: Mode, input: FinalizeTransferInput): Promise<ProviderTransfer> {
    return finalizeTransfer(this.http, mode, input);
  }

  verifyTransfer(mode: Mode, reference: string): Promise<ProviderTransfer | null> {
    return verifyTransfer(this.http, mode, reference);
  }

  /**
   * The provider's bank account for a customer needs their first name, last name and phone
   * (guide "Dedicated Virtual Accounts"): refused before anything is sent when one is blank; they
   * are set on the customer and sent again with the account, which updates a customer created
   * earlier without them.
   */
  async createDedicatedAccount(mode: Mode, input: CreateDedicatedAccountInput): Promise<ProviderDedicatedAccount> {
    const missing = (['firstName', 'lastName', 'phone'] as const).filter((field) => !input[field]?.trim());
    if (missing.length > 0) {
      throw new DomainError('validation_error', 'A dedicated account needs the customer\'s first name, last name and phone.', {
        ...Object.fromEntries(missing.map((field) => [WIRE_NAMES[field], ['is required for a dedicated account']])),
      });
    }
    const names = { first_name: input.firstName.trim(), last_name: input.lastName.trim(), phone: input.phone.trim() };
    // The same e-mail is the same provider customer, and one account per customer and bank: both
    // calls are repeatable, so a retry after a timeout returns the account already created.
    const customer = asObject(
      await this.http.send(mode, { operation: 'customer.create', method: 'POST', path: '/customer', body: { email: input.customerEmail, ...names } }),
      'customer',
    );
    const customerCode = requiredString(customer, 'customer_code');
    const data = await this.http.send(mode, {
      operation: 'dedicated_account.create',
      method: 'POST',
      path: '/dedicated_account',
      body: { customer: customerCode, ...(input.preferredBank !== undefined && { preferred_bank: input.preferredBank }), ...names },
    });
    return toProviderDedicatedAccount(data, customerCode);
  }

  addDisputeEvidence(mode: Mode, providerDisputeId: string, evidence: DisputeEvidenceInput): Promise<ProviderDisputeEvidence> {
    return addEvidence(this.http, mode, providerDisputeId, evidence);
  }

  disputeUploadUrl(mode: Mode, providerDisputeId: string, fileName: string): Promise<ProviderDisputeUpload> {
    return uploadUrl(this.http, mode, providerDisputeId, fileName);
  }

  resolveDispute(mode: Mode, providerDisputeId: string, input: ResolveDisputeInput): Promise<ProviderDispute> {
    return resolve(this.http, mode, providerDisputeId, input);
  }

  async contestDispute(mode: Mode, providerDisputeId: string, input: ContestDisputeInput): Promise<ProviderDispute> {
    const evidence = await addEvidence(this.http, mode, providerDisputeId, input.evidence);
    const uploadedFileName = await this.uploadDocument(mode, providerDisputeId, input.document);
    return resolve(this.http, mode, providerDisputeId, {
      resolution: 'declined',
      message: input.message,
      refundAmount: Amount.zero(),
      uploadedFileName,
      providerEvidenceId: evidence.providerEvidenceId,
    });
  }

  async acceptDispute(mode: Mode, providerDisputeId: string, input: AcceptDisputeInput): Promise<ProviderDispute> {
    const uploadedFileName = await this.uploadDocument(mode, providerDisputeId, input.document);
    return resolve(this.http, mode, providerDisputeId, {
      resolution: 'merchant-accepted',
      message: input.message,
      refundAmount: input.refundAmount,
      uploadedFileName,
    });
  }

  private async uploadDocument(mode: Mode, providerDisputeId: string, document: DisputeDocument): Promise<string> {
    const upload = await uploadUrl(this.http, mode, providerDisputeId, document.fileName);
    await uploadDocument(upload, document, this.options.timeoutMs);
    return upload.fileName;
  }

  async completeSandboxCheckout(mode: Mode, reference: string, outcome: SandboxCheckoutOutcome): Promise<ProviderTransaction> {
    assertSandbox(mode);
    const data = await this.http.send(mode, {
      operation: 'sim.transaction.complete',
      method: 'POST',
      path: `/sim/transactions/${encodeURIComponent(reference)}/complete`,
      body: { outcome },
    });
    return toProviderTransaction(data);
  }

  async depositToDedicatedAccount(mode: Mode, input: SandboxDepositInput): Promise<ProviderTransaction> {
    assertSandbox(mode);
    const data = await this.http.send(mode, {
      operation: 'sim.dedicated_account.deposit',
      method: 'POST',
      path: `/sim/dedicated_accounts/${encodeURIComponent(input.accountNumber)}/deposits`,
      body: {
        amount: toWireMinor(input.amount),
        ...(input.senderName !== undefined && { sender_name: input.senderName }),
        ...(input.senderBank !== undefined && { sender_bank: input.senderBank }),
        ...(input.senderAccountNumber !== undefined && { sender_account_number: input.senderAccountNumber }),
        ...(input.narration !== undefined && { narration: input.narration }),
      },
    });
    return toProviderTransaction(data);
  }

  async openSandboxDispute(mode: Mode, input: SandboxDisputeInput): Promise<ProviderDispute> {
    assertSandbox(mode);
    const data = await this.http.send(mode, {
      operation: 'sim.dispute.open',
      method: 'POST',
      path: '/sim/disputes',
      body: {
        transaction: input.transactionReference,
        ...(input.amount !== undefined && { amount: toWireMinor(input.amount) }),
        ...(input.reason !== undefined && { reason: input.reason }),
      },
    });
    return toProviderDispute(data);
  }

  async resolveSandboxDispute(mode: Mode, providerDisputeId: string, resolution: 'merchant-accepted' | 'declined'): Promise<ProviderDispute> {
    assertSandbox(mode);
    const data = await this.http.send(mode, {
      operation: 'sim.dispute.resolve',
      method: 'POST',
      path: `/sim/disputes/${encodeURIComponent(providerDisputeId)}/resolve`,
      body: { resolution },
    });
    return toProviderDispute(data);
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderWebhook | null {
    const mode = signingMode(this.options.accounts, rawBody, signatureHeader);
    return mode === null ? null : parseVerifiedWebhook(mode, rawBody);
  }
}

/** Sandbox controls move no real money and exist only in the simulator: never in live mode. */
function assertSandbox(mode: Mode): void {
  if (mode !== 'test') throw new DomainError('test_mode_required', 'Sandbox controls are available with test keys only.');
}

/**
 * The transaction under the reference is the charge we asked for: same amount and currency, and
 * the same card when the provider names one (it may send `{}` for an attempt that failed early).
 */
function isSameCharge(transaction: ProviderTransaction, input: ChargeAuthorizationInput): boolean {
  return (
    (transaction.requestedAmount ?? transaction.amount).equals(input.amount) &&
    transaction.currency === input.currency &&
    (transaction.authorization === null || transaction.authorization.code === input.authorizationCode)
  );
}
