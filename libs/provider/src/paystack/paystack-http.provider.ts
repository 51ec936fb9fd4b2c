import type { Mode } from '@gateway/contracts';
import { type ProviderAccountConfig, DomainError } from '@gateway/platform';
import { PaymentProvider } from '../payment-provider';
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
} from '../provider.types';
import { ProviderRejectedError } from '../provider-rejected.error';
import { PaystackHttpClient } from './paystack-http-client';
import {
  toProviderDedicatedAccount,
  toProviderDispute,
  toProviderHold,
  toProviderRefund,
  toProviderTransaction,
  toProviderTransfer,
  toProviderTransferRecipient,
} from './paystack.mapper';
import { parseVerifiedWebhook, signingMode } from './paystack-webhook';
import { asObject, requiredString, toWireMinor } from './paystack-wire';

export interface PaystackHttpProviderOptions {
  accounts: Readonly<Record<Mode, ProviderAccountConfig>>;
  timeoutMs: number;
}

/**
 * PaymentProvider over Paystack's HTTP API (or the simulator, which speaks the same wire format).
 * Our reference is sent as the provider's reference, so a retry after a timeout finds or repeats
 * the same object instead of moving money twice.
 */
export class PaystackHttpProvider extends PaymentProvider {
  private readonly http: PaystackHttpClient;

  constructor(private readonly options: PaystackHttpProviderOptions) {
    super();
    this.http = new PaystackHttpClient(options.accounts, options.timeoutMs);
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
   * Paystack refuses a reused reference outright (400 "Duplicate Transaction Reference"), also when
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
      if (!isDuplicateReference(error)) throw error;
      const earlier = await this.verifyTransaction(mode, input.reference);
      if (!earlier || !isSameCharge(earlier, input)) throw error;
      return earlier;
    }
  }

  async reserveAuthorization(mode: Mode, input: ReserveAuthorizationInput): Promise<ProviderHold> {
    const data = await this.http.send(mode, {
      operation: 'preauthorization.reserve',
      method: 'POST',
      path: '/preauthorization/reserve_authorization',
      body: {
        reference: input.reference,
        authorization_code: input.authorizationCode,
        email: input.email,
        amount: toWireMinor(input.amount),
        currency: input.currency,
      },
    });
    return toProviderHold(data);
  }

  async captureAuthorization(mode: Mode, input: CaptureAuthorizationInput): Promise<ProviderHold> {
    const data = await this.http.send(mode, {
      operation: 'preauthorization.capture',
      method: 'POST',
      path: '/preauthorization/capture_authorization',
      body: { reference: input.reference, ...(input.amount !== undefined && { amount: toWireMinor(input.amount) }) },
    });
    return toProviderHold(data);
  }

  async releaseAuthorization(mode: Mode, reference: string): Promise<ProviderHold> {
    const data = await this.http.send(mode, {
      operation: 'preauthorization.release',
      method: 'POST',
      path: '/preauthorization/release_authorization',
      body: { reference },
    });
    return toProviderHold(data);
  }

  async refund(mode: Mode, input: RefundInput): Promise<ProviderRefund> {
    const data = await this.http.send(mode, {
      operation: 'refund.create',
      method: 'POST',
      path: '/refund',
      body: {
        transaction: input.transactionReference,
        ...(input.amount !== undefined && { amount: toWireMinor(input.amount) }),
      },
      // /refund takes no reference of ours: the key makes a retry return the first refund.
      idempotencyKey: input.reference === undefined ? undefined : `refund:${input.reference}`,
    });
    return toProviderRefund(data);
  }

  async listBanks(mode: Mode): Promise<ProviderBank[]> {
    const data = await this.http.send(mode, { operation: 'bank.list', method: 'GET', path: '/bank' });
    if (!Array.isArray(data)) throw new DomainError('provider_error', 'The payment provider sent an unexpected answer (banks).');
    return data.map((item) => {
      const bank = asObject(item, 'bank');
      return {
        name: requiredString(bank, 'name'),
        code: requiredString(bank, 'code'),
        slug: requiredString(bank, 'slug'),
        currency: requiredString(bank, 'currency'),
      };
    });
  }

  async createTransferRecipient(mode: Mode, input: CreateTransferRecipientInput): Promise<ProviderTransferRecipient> {
    const data = await this.http.send(mode, {
      operation: 'transferrecipient.create',
      method: 'POST',
      path: '/transferrecipient',
      body: {
        type: 'nuban',
        name: input.name,
        account_number: input.accountNumber,
        bank_code: input.bankCode,
        currency: input.currency,
      },
    });
    return toProviderTransferRecipient(data);
  }

  async initiateTransfer(mode: Mode, input: InitiateTransferInput): Promise<ProviderTransfer> {
    const data = await this.http.send(mode, {
      operation: 'transfer.initiate',
      method: 'POST',
      path: '/transfer',
      body: {
        source: 'balance',
        reference: input.reference,
        amount: toWireMinor(input.amount),
        currency: input.currency,
        recipient: input.recipientCode,
        ...(input.reason !== undefined && { reason: input.reason }),
      },
    });
    return toProviderTransfer(data);
  }

  async verifyTransfer(mode: Mode, reference: string): Promise<ProviderTransfer | null> {
    const data = await this.http.sendOrNull(mode, {
      operation: 'transfer.verify',
      method: 'GET',
      path: `/transfer/verify/${encodeURIComponent(reference)}`,
    });
    return data === null ? null : toProviderTransfer(data);
  }

  async createDedicatedAccount(mode: Mode, input: CreateDedicatedAccountInput): Promise<ProviderDedicatedAccount> {
    // The same e-mail is the same provider customer, and one account per customer and bank: both
    // calls are repeatable, so a retry after a timeout returns the account already created.
    const customer = asObject(
      await this.http.send(mode, {
        operation: 'customer.create',
        method: 'POST',
        path: '/customer',
        body: {
          email: input.customerEmail,
          ...(input.firstName !== undefined && { first_name: input.firstName }),
          ...(input.lastName !== undefined && { last_name: input.lastName }),
          ...(input.phone !== undefined && { phone: input.phone }),
        },
      }),
      'customer',
    );
    const customerCode = requiredString(customer, 'customer_code');
    const data = await this.http.send(mode, {
      operation: 'dedicated_account.create',
      method: 'POST',
      path: '/dedicated_account',
      body: { customer: customerCode, ...(input.preferredBank !== undefined && { preferred_bank: input.preferredBank }) },
    });
    return toProviderDedicatedAccount(data, customerCode);
  }

  async submitDisputeEvidence(mode: Mode, providerDisputeId: string, evidence: DisputeEvidenceInput): Promise<ProviderDispute> {
    await this.http.send(mode, {
      operation: 'dispute.evidence',
      method: 'POST',
      path: `/dispute/${encodeURIComponent(providerDisputeId)}/evidence`,
      body: {
        customer_email: evidence.customerEmail,
        customer_name: evidence.customerName,
        customer_phone: evidence.customerPhone,
        service_details: evidence.serviceDetails,
        ...(evidence.deliveryAddress !== undefined && { delivery_address: evidence.deliveryAddress }),
        ...(evidence.deliveryDate !== undefined && { delivery_date: evidence.deliveryDate }),
      },
    });
    // The evidence answer is not the dispute: read the dispute's new status.
    const dispute = await this.http.send(mode, {
      operation: 'dispute.fetch',
      method: 'GET',
      path: `/dispute/${encodeURIComponent(providerDisputeId)}`,
    });
    return toProviderDispute(dispute);
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

/** Paystack's refusal of a reference it has seen (and the simulator's, which copies it). */
function isDuplicateReference(error: unknown): error is ProviderRejectedError {
  return error instanceof ProviderRejectedError && error.providerStatus === 400 && /duplicate transaction reference/i.test(error.providerMessage);
}

/**
 * The transaction under the reference is the charge we asked for: same amount and currency, and
 * the same card when the provider names one (it may send `{}` for an attempt that failed early).
 */
function isSameCharge(transaction: ProviderTransaction, input: ChargeAuthorizationInput): boolean {
  return (
    transaction.amount.equals(input.amount) &&
    transaction.currency === input.currency &&
    (transaction.authorization === null || transaction.authorization.code === input.authorizationCode)
  );
}
