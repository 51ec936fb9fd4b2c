import type {
  ProviderAuthorization,
  ProviderBank,
  ProviderBankTransfer,
  ProviderDedicatedAccount,
  ProviderDispute,
  ProviderDisputeEvidence,
  ProviderDisputeStatus,
  ProviderDisputeUpload,
  ProviderHold,
  ProviderHoldRelease,
  ProviderHoldStatus,
  ProviderRefund,
  ProviderRefundNotice,
  ProviderRefundStatus,
  ProviderTransaction,
  ProviderTransactionStatus,
  ProviderTransfer,
  ProviderTransferRecipient,
  ProviderTransferStatus,
} from '../provider.types';
import {
  asObject,
  optionalDate,
  optionalMinor,
  optionalString,
  requiredCurrency,
  requiredMinor,
  requiredString,
  unexpected,
  type WireObject,
} from './paystack-wire';

/** Paystack wire objects → provider domain objects. The one place that knows Paystack's field names. */

/**
 * Only `success` and `failed` are final answers. `abandoned` (initialized, never attempted) and
 * `ongoing` are not terminal on Paystack — the customer may still pay — so, like any status we
 * do not know (`pending`, `processing`, `queued`, …), they read as `pending`. `reversed` means the
 * payment succeeded and was later refunded; the refunds are tracked on their own.
 */
function transactionStatus(status: string): ProviderTransactionStatus {
  if (status === 'success' || status === 'reversed') return 'success';
  if (status === 'failed') return 'failed';
  return 'pending';
}

export function toProviderTransaction(value: unknown): ProviderTransaction {
  const wire = asObject(value, 'transaction');
  // Only deposits carry it, so every other transaction reads exactly as before.
  const bankTransfer = toProviderBankTransfer(wire);
  const customer = wire['customer'] && typeof wire['customer'] === 'object' ? (wire['customer'] as WireObject) : {};
  return {
    providerId: requiredString(wire, 'id'),
    reference: requiredString(wire, 'reference'),
    status: transactionStatus(requiredString(wire, 'status')),
    amount: requiredMinor(wire, 'amount'),
    requestedAmount: optionalMinor(wire, 'requested_amount'),
    currency: requiredCurrency(wire),
    fee: optionalMinor(wire, 'fees'),
    paidAt: optionalDate(wire, 'paid_at'),
    gatewayResponse: optionalString(wire, 'gateway_response'),
    authorization: toProviderAuthorization(wire['authorization']),
    customerCode: optionalString(customer, 'customer_code'),
    channel: optionalString(wire, 'channel'),
    ...(bankTransfer && { bankTransfer }),
  };
}

/** The sender and the receiving dedicated account of a `dedicated_nuban` transaction; null for any other channel. */
function toProviderBankTransfer(wire: WireObject): ProviderBankTransfer | null {
  if (optionalString(wire, 'channel') !== 'dedicated_nuban') return null;
  const objectAt = (value: unknown): WireObject => (value && typeof value === 'object' ? (value as WireObject) : {});
  const authorization = objectAt(wire['authorization']);
  return {
    receiverAccountNumber:
      optionalString(authorization, 'receiver_bank_account_number') ??
      optionalString(objectAt(wire['metadata']), 'receiver_account_number') ??
      optionalString(objectAt(wire['dedicated_account']), 'account_number'),
    senderName: optionalString(authorization, 'sender_name'),
    senderBank: optionalString(authorization, 'sender_bank'),
  };
}

/** Paystack sends `{}` until there is an authorization. */
function toProviderAuthorization(value: unknown): ProviderAuthorization | null {
  if (value === null || value === undefined) return null;
  const wire = asObject(value, 'authorization');
  if (!wire['authorization_code']) return null;
  return {
    code: requiredString(wire, 'authorization_code'),
    reusable: wire['reusable'] === true,
    signature: optionalString(wire, 'signature'),
    last4: optionalString(wire, 'last4'),
    brand: optionalString(wire, 'brand'),
    expMonth: optionalString(wire, 'exp_month'),
    expYear: optionalString(wire, 'exp_year'),
    bank: optionalString(wire, 'bank'),
    channel: optionalString(wire, 'channel'),
  };
}

/**
 * Preauthorization statuses (API reference samples and the `preauthorization.*` events):
 * authorized, captured, released, failed, capture_failed, release_failed. A failed capture or
 * release leaves the hold as it was: still reserved.
 */
const HOLD_STATUSES: Record<string, ProviderHoldStatus> = {
  /** The simulator's authorize-only checkout, not yet authorized by the customer. */
  pending: 'pending',
  authorized: 'reserved',
  captured: 'captured',
  released: 'released',
  failed: 'failed',
  capture_failed: 'reserved',
  release_failed: 'reserved',
};

/** Reserve and Verify Preauthorization: the preauthorization object (`amount` = held). */
export function toProviderHold(value: unknown): ProviderHold {
  const wire = asObject(value, 'hold');
  const status = HOLD_STATUSES[requiredString(wire, 'status')];
  if (!status) throw unexpected('hold status');
  const held = requiredMinor(wire, 'amount');
  const captured = status === 'captured' ? optionalMinor(wire, 'captured_amount') : null;
  return {
    reference: requiredString(wire, 'reference'),
    status,
    amount: captured ?? held,
    reservedAmount: held,
    currency: requiredCurrency(wire),
    fee: status === 'captured' ? optionalMinor(wire, 'fees') : null,
    gatewayResponse: holdGatewayResponse(wire),
    authorization: toProviderAuthorization(wire['authorization']),
  };
}

/**
 * Capture Preauthorization answers the capture's transaction (`status: success`, the captured
 * `amount` and its `fees`); anything but success means nothing was captured.
 */
export function toCapturedHold(value: unknown): ProviderHold {
  const wire = asObject(value, 'capture');
  const status = requiredString(wire, 'status');
  return {
    reference: requiredString(wire, 'reference'),
    status: status === 'success' ? 'captured' : 'reserved',
    amount: requiredMinor(wire, 'amount'),
    reservedAmount: null,
    currency: requiredCurrency(wire),
    fee: optionalMinor(wire, 'fees'),
    gatewayResponse: optionalString(wire, 'gateway_response'),
  };
}

/** The card a preauthorization is on (`authorization.authorization_code`), when the answer names it. */
export function holdAuthorizationCode(value: unknown): string | null {
  const wire = asObject(value, 'hold');
  const authorization = wire['authorization'];
  return authorization !== null && typeof authorization === 'object' ? optionalString(authorization as WireObject, 'authorization_code') : null;
}

/** Release Preauthorization answers `{ status, reference }` only. */
export function toHoldRelease(value: unknown): ProviderHoldRelease {
  const wire = asObject(value, 'release');
  if (requiredString(wire, 'status') !== 'released') throw unexpected('release status');
  return { reference: requiredString(wire, 'reference'), status: 'released' };
}

/** `gateway_response` is an object on preauthorizations (`{ authorizeResponse, rrn }`); `message` says it too. */
function holdGatewayResponse(wire: WireObject): string | null {
  const response = wire['gateway_response'];
  if (response !== null && typeof response === 'object' && !Array.isArray(response)) {
    const authorize = optionalString(response as WireObject, 'authorizeResponse');
    if (authorize !== null) return authorize;
  } else if (typeof response === 'string' && response !== '') {
    return response;
  }
  return optionalString(wire, 'message');
}

/** Paystack: pending, processing, needs-attention, processed, failed. Only the last two are final. */
function refundStatus(status: string): ProviderRefundStatus {
  if (status === 'processed') return 'processed';
  if (status === 'failed') return 'failed';
  return 'pending';
}

/**
 * Create Refund answers `transaction` as an object with our reference; List Refunds names the
 * transaction by its id only (`transaction: 1641`), so the reference asked about is the fallback.
 */
export function toProviderRefund(value: unknown, askedTransactionReference?: string): ProviderRefund {
  const wire = asObject(value, 'refund');
  const transaction = wire['transaction'] && typeof wire['transaction'] === 'object' ? (wire['transaction'] as WireObject) : {};
  const transactionReference = optionalString(wire, 'transaction_reference') ?? optionalString(transaction, 'reference') ?? askedTransactionReference ?? null;
  if (transactionReference === null) throw unexpected('refund transaction reference');
  return {
    providerId: requiredString(wire, 'id'),
    status: refundStatus(requiredString(wire, 'status')),
    amount: requiredMinor(wire, 'amount'),
    currency: requiredCurrency(wire),
    transactionReference,
  };
}

/**
 * A `refund.*` webhook's `data` (guide "Refunds", doc-code-snippets
 * `dist/doc/payments/refunds/events.js`): `transaction_reference`, `refund_reference` (the
 * processor's, null while pending), `amount` in subunits as a number or a digit string, no `id`.
 */
export function toProviderRefundNotice(value: unknown): ProviderRefundNotice {
  const wire = asObject(value, 'refund');
  const transaction = wire['transaction'] && typeof wire['transaction'] === 'object' ? (wire['transaction'] as WireObject) : {};
  const transactionReference = optionalString(wire, 'transaction_reference') ?? optionalString(transaction, 'reference');
  if (transactionReference === null) throw unexpected('refund transaction reference');
  return {
    transactionReference,
    status: refundStatus(requiredString(wire, 'status')),
    amount: optionalMinor(wire, 'amount'),
    currency: wire['currency'] === null || wire['currency'] === undefined ? null : requiredCurrency(wire),
    refundReference: optionalString(wire, 'refund_reference'),
  };
}

/** Create Transfer Recipient; `details.account_name` may be null (the API reference's samples), then `name`. */
export function toProviderTransferRecipient(value: unknown): ProviderTransferRecipient {
  const wire = asObject(value, 'recipient');
  const details = asObject(wire['details'], 'recipient details');
  return {
    providerRecipientCode: requiredString(wire, 'recipient_code'),
    accountName: optionalString(details, 'account_name') ?? requiredString(wire, 'name'),
    accountNumber: requiredString(details, 'account_number'),
    bankCode: requiredString(details, 'bank_code'),
    bankName: optionalString(details, 'bank_name'),
  };
}

/**
 * Paystack: pending, otp, queued, received, success, failed, abandoned, blocked, rejected, reversed
 * (PaystackOSS/openapi, List Transfers `status`). `otp` is its own state: nothing moves until the
 * transfer is finalized with the OTP.
 */
function transferStatus(status: string): ProviderTransferStatus {
  if (status === 'otp') return 'otp_required';
  if (status === 'success') return 'success';
  if (status === 'reversed') return 'reversed';
  if (status === 'failed' || status === 'abandoned' || status === 'blocked' || status === 'rejected') return 'failed';
  return 'pending';
}

export function toProviderTransfer(value: unknown): ProviderTransfer {
  const wire = asObject(value, 'transfer');
  return {
    providerTransferCode: requiredString(wire, 'transfer_code'),
    reference: requiredString(wire, 'reference'),
    status: transferStatus(requiredString(wire, 'status')),
    amount: requiredMinor(wire, 'amount'),
    currency: requiredCurrency(wire),
    failureReason: optionalString(wire, 'failures') ?? optionalString(wire, 'gateway_response'),
    transferredAt: optionalDate(wire, 'transferred_at'),
  };
}

export function toProviderDedicatedAccount(value: unknown, providerCustomerCode: string): ProviderDedicatedAccount {
  const wire = asObject(value, 'dedicated account');
  const bank = asObject(wire['bank'], 'dedicated account bank');
  return {
    providerId: requiredString(wire, 'id'),
    providerCustomerCode,
    accountNumber: requiredString(wire, 'account_number'),
    accountName: requiredString(wire, 'account_name'),
    bankName: requiredString(bank, 'name'),
  };
}

/**
 * Paystack: awaiting-merchant-feedback (opened), awaiting-bank-feedback (contested: the bank
 * decides), pending, resolved, archived. Resolved with `declined` is the merchant's win; any other
 * resolution (`merchant-accepted`, `auto-accepted`, …) means the customer got the money back.
 */
function disputeStatus(status: string, resolution: string | null): ProviderDisputeStatus {
  if (status === 'resolved') return resolution === 'declined' ? 'won' : 'lost';
  if (status === 'awaiting-bank-feedback') return 'under_review';
  return 'open';
}

/**
 * A dispute, as Fetch/Resolve Dispute answer it and the `charge.dispute.*` events carry it
 * (API reference and PaystackOSS/doc-code-snippets samples): our reference is in
 * `transaction.reference` (`transaction_reference` is null there); `refund_amount` and `currency`
 * may be null (then the transaction's); times are camelCase `dueAt` / `resolvedAt` (snake_case
 * read too).
 */
export function toProviderDispute(value: unknown): ProviderDispute {
  const wire = asObject(value, 'dispute');
  const transaction = wire['transaction'] && typeof wire['transaction'] === 'object' ? (wire['transaction'] as WireObject) : {};
  const transactionReference = optionalString(wire, 'transaction_reference') ?? optionalString(transaction, 'reference');
  if (transactionReference === null) throw unexpected('dispute transaction reference');
  const amount = optionalMinor(wire, 'refund_amount') ?? requiredMinor(transaction, 'amount');
  return {
    providerId: requiredString(wire, 'id'),
    transactionReference,
    status: disputeStatus(requiredString(wire, 'status'), optionalString(wire, 'resolution')),
    amount,
    currency: wire['currency'] === null || wire['currency'] === undefined ? requiredCurrency(transaction) : requiredCurrency(wire),
    reason: optionalString(wire, 'reason') ?? firstMessage(wire),
    dueAt: optionalDate(wire, 'dueAt') ?? optionalDate(wire, 'due_at'),
    resolvedAt: optionalDate(wire, 'resolvedAt') ?? optionalDate(wire, 'resolved_at'),
  };
}

/** Paystack tells the customer's complaint in `messages[0].body`. */
function firstMessage(wire: WireObject): string | null {
  const messages = wire['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return null;
  const first: unknown = messages[0];
  return first !== null && typeof first === 'object' ? optionalString(first as WireObject, 'body') : null;
}

/** Add Evidence answers the evidence with its `id`. */
export function toProviderDisputeEvidence(value: unknown): ProviderDisputeEvidence {
  return { providerEvidenceId: requiredString(asObject(value, 'dispute evidence'), 'id') };
}

/** Fetch Upload URL answers `{ signedUrl, fileName }`. */
export function toProviderDisputeUpload(value: unknown): ProviderDisputeUpload {
  const wire = asObject(value, 'dispute upload url');
  const uploadUrl = requiredString(wire, 'signedUrl');
  if (!/^https?:\/\//.test(uploadUrl)) throw unexpected('signedUrl');
  return { uploadUrl, fileName: requiredString(wire, 'fileName') };
}

/** One entry of List Banks. */
export function toProviderBank(value: unknown): ProviderBank {
  const bank = asObject(value, 'bank');
  return {
    name: requiredString(bank, 'name'),
    code: requiredString(bank, 'code'),
    slug: requiredString(bank, 'slug'),
    currency: requiredString(bank, 'currency'),
    type: requiredString(bank, 'type'),
  };
}
