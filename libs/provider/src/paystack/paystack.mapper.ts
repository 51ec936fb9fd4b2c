import type {
  ProviderAuthorization,
  ProviderDedicatedAccount,
  ProviderDispute,
  ProviderDisputeStatus,
  ProviderHold,
  ProviderHoldStatus,
  ProviderRefund,
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
  const customer = wire['customer'] && typeof wire['customer'] === 'object' ? (wire['customer'] as WireObject) : {};
  return {
    providerId: requiredString(wire, 'id'),
    reference: requiredString(wire, 'reference'),
    status: transactionStatus(requiredString(wire, 'status')),
    amount: requiredMinor(wire, 'amount'),
    currency: requiredCurrency(wire),
    fee: optionalMinor(wire, 'fees'),
    paidAt: optionalDate(wire, 'paid_at'),
    gatewayResponse: optionalString(wire, 'gateway_response'),
    authorization: toProviderAuthorization(wire['authorization']),
    customerCode: optionalString(customer, 'customer_code'),
    channel: optionalString(wire, 'channel'),
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

const HOLD_STATUSES: Record<string, ProviderHoldStatus> = {
  reserved: 'reserved',
  success: 'captured',
  captured: 'captured',
  released: 'released',
  failed: 'failed',
};

export function toProviderHold(value: unknown): ProviderHold {
  const wire = asObject(value, 'hold');
  const status = HOLD_STATUSES[requiredString(wire, 'status')];
  if (!status) throw unexpected('hold status');
  return {
    reference: requiredString(wire, 'reference'),
    status,
    amount: requiredMinor(wire, 'amount'),
    reservedAmount: wire['reserved_amount'] === undefined ? requiredMinor(wire, 'amount') : requiredMinor(wire, 'reserved_amount'),
    currency: requiredCurrency(wire),
    fee: optionalMinor(wire, 'fees'),
    gatewayResponse: optionalString(wire, 'gateway_response'),
  };
}

/** Paystack: pending, processing, needs-attention, processed, failed. Only the last two are final. */
function refundStatus(status: string): ProviderRefundStatus {
  if (status === 'processed') return 'processed';
  if (status === 'failed') return 'failed';
  return 'pending';
}

export function toProviderRefund(value: unknown): ProviderRefund {
  const wire = asObject(value, 'refund');
  const transaction = wire['transaction'] && typeof wire['transaction'] === 'object' ? (wire['transaction'] as WireObject) : {};
  const transactionReference = optionalString(wire, 'transaction_reference') ?? optionalString(transaction, 'reference');
  if (transactionReference === null) throw unexpected('refund transaction reference');
  return {
    providerId: requiredString(wire, 'id'),
    status: refundStatus(requiredString(wire, 'status')),
    amount: requiredMinor(wire, 'amount'),
    currency: requiredCurrency(wire),
    transactionReference,
  };
}

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

/** Paystack: pending, otp, queued, received, success, failed, abandoned, blocked, rejected, reversed. */
function transferStatus(status: string): ProviderTransferStatus {
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
 * Paystack: awaiting-merchant-feedback (opened), awaiting-bank-feedback (evidence in), pending,
 * resolved (+ resolution `merchant-accepted`: the customer keeps the money; `declined`: the merchant
 * keeps it), archived.
 */
function disputeStatus(status: string, resolution: string | null): ProviderDisputeStatus {
  if (status === 'resolved') {
    if (resolution === 'declined') return 'won';
    if (resolution === 'merchant-accepted') return 'lost';
    throw unexpected('dispute resolution');
  }
  if (status === 'awaiting-bank-feedback') return 'under_review';
  return 'open';
}

export function toProviderDispute(value: unknown): ProviderDispute {
  const wire = asObject(value, 'dispute');
  const transaction = wire['transaction'] && typeof wire['transaction'] === 'object' ? (wire['transaction'] as WireObject) : {};
  const transactionReference = optionalString(wire, 'transaction_reference') ?? optionalString(transaction, 'reference');
  if (transactionReference === null) throw unexpected('dispute transaction reference');
  return {
    providerId: requiredString(wire, 'id'),
    transactionReference,
    status: disputeStatus(requiredString(wire, 'status'), optionalString(wire, 'resolution')),
    amount: requiredMinor(wire, 'refund_amount'),
    currency: requiredCurrency(wire),
    reason: optionalString(wire, 'reason'),
    dueAt: optionalDate(wire, 'due_at'),
    resolvedAt: optionalDate(wire, 'resolved_at'),
  };
}
