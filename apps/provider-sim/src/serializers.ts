import type { ResolvedAccount } from './banks';
import type { Account } from './state/accounts';
import type { AuthorizationRecord } from './state/authorizations';
import type { CustomerRecord } from './state/customers';
import type { DedicatedAccountRecord } from './state/dedicated-accounts';
import type { DisputeEvidence, DisputeRecord } from './state/disputes';
import type { HoldRecord } from './state/holds';
import type { MisreportField } from './state/knobs';
import type { RefundRecord } from './state/refunds';
import type { TransactionRecord } from './state/transactions';
import type { RecipientRecord, TransferRecord } from './state/transfers';

/**
 * Records → Paystack wire objects (snake_case). Every function returns a fresh
 * plain object, so a response or callback body can never change after it has
 * been built, even if the record moves on (e.g. a transfer completing).
 */

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function customerToWire(customer: CustomerRecord) {
  return {
    id: customer.id,
    customer_code: customer.customerCode,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    phone: customer.phone,
    metadata: null,
    risk_action: 'default',
    international_format_phone: null,
    created_at: iso(customer.createdAt),
  };
}

export function authorizationToWire(authorization: AuthorizationRecord) {
  const transfer = authorization.bankTransfer;
  return {
    authorization_code: authorization.authorizationCode,
    bin: authorization.bin,
    last4: authorization.last4,
    exp_month: authorization.expMonth,
    exp_year: authorization.expYear,
    channel: authorization.channel,
    card_type: authorization.cardType,
    bank: authorization.bank,
    country_code: 'NG',
    brand: authorization.brand,
    reusable: authorization.reusable,
    signature: authorization.signature,
    account_name: transfer ? transfer.senderName : null,
    ...(transfer && {
      sender_bank: transfer.senderBank,
      sender_bank_account_number: transfer.senderAccountNumber,
      sender_name: transfer.senderName,
      receiver_bank_account_number: transfer.receiverAccountNumber,
      receiver_bank: transfer.receiverBank,
      narration: transfer.narration,
    }),
  };
}

/** Create Dedicated Virtual Account's answer (API reference, `DedicatedNubanCreateResponse`). */
export function dedicatedAccountToWire(account: Account, dedicated: DedicatedAccountRecord) {
  const customer = account.customers.findByCode(dedicated.customerCode);
  return {
    bank: { name: dedicated.bank.name, id: dedicated.bank.id, slug: dedicated.bank.slug },
    account_name: dedicated.accountName,
    account_number: dedicated.accountNumber,
    assigned: true,
    currency: 'NGN',
    metadata: null,
    active: true,
    id: dedicated.id,
    created_at: iso(dedicated.createdAt),
    updated_at: iso(dedicated.createdAt),
    assignment: {
      integration: account.integrationId,
      assignee_id: customer?.id ?? null,
      assignee_type: 'Customer',
      expired: false,
      account_type: 'PAY-WITH-TRANSFER-RECURRING',
      assigned_at: iso(dedicated.createdAt),
      expired_at: null,
    },
    customer: customer ? customerToWire(customer) : { customer_code: dedicated.customerCode },
  };
}

/**
 * The transaction object of /transaction/verify and charge.success.
 * `authorization` is `{}` until there is one — exactly as Paystack sends it —
 * so an adapter written against the simulator also copes with the real thing.
 */
export function transactionToWire(account: Account, transaction: TransactionRecord) {
  const customer = account.customers.findByCode(transaction.customerCode);
  const authorization = transaction.authorizationCode
    ? account.authorizations.find(transaction.authorizationCode)
    : undefined;
  const dedicated = transaction.dedicatedAccountNumber
    ? account.dedicatedAccounts.findByNumber(transaction.dedicatedAccountNumber)
    : undefined;
  return {
    id: transaction.id,
    domain: account.domain,
    status: transaction.status,
    reference: transaction.reference,
    // When the customer bears the fees (the customer_bears_fees knob), Paystack charges them on top:
    // `amount` is what was paid, `requested_amount` what the merchant asked for.
    amount: transaction.feesBorneByCustomer && transaction.fees !== null ? transaction.amount + transaction.fees : transaction.amount,
    requested_amount: transaction.amount,
    currency: transaction.currency,
    fees: transaction.fees,
    paid_at: iso(transaction.paidAt),
    created_at: iso(transaction.createdAt),
    channel: transaction.channel,
    gateway_response: transaction.gatewayResponse,
    message: null,
    metadata: transaction.metadata,
    customer: customer ? customerToWire(customer) : { email: transaction.email, customer_code: transaction.customerCode },
    authorization: authorization ? authorizationToWire(authorization) : {},
    ...(dedicated && { dedicated_account: dedicatedAccountToWire(account, dedicated) }),
  };
}

/**
 * A transaction answer that gets `field` wrong — one minor unit less, or NGN ⇄ USD — for the
 * `misreport_next` knob: a client must not credit what it did not ask for. The record is unchanged.
 */
export function misreportedTransaction<T extends { amount: number; currency: string }>(wire: T, field: MisreportField): T {
  if (field === 'amount') {
    const requested = (wire as { requested_amount?: unknown }).requested_amount;
    return { ...wire, amount: wire.amount - 1, ...(typeof requested === 'number' && { requested_amount: requested - 1 }) };
  }
  return { ...wire, currency: wire.currency === 'NGN' ? 'USD' : 'NGN' };
}

/**
 * A preauthorization, as Reserve and Verify Preauthorization answer it (API reference samples in
 * PaystackOSS/doc-code-snippets `dist/api/preauthorization/*`): `amount` is the amount held,
 * `gateway_response` an object, `status` one of authorized / captured / released / failed.
 */
export function holdToWire(account: Account, hold: HoldRecord) {
  const authorization = hold.authorizationCode === null ? undefined : account.authorizations.find(hold.authorizationCode);
  const customer = authorization ? account.customers.findByCode(authorization.customerCode) : undefined;
  const capture = hold.status === 'captured' ? account.transactions.findByReference(hold.reference) : undefined;
  return {
    id: hold.id,
    domain: account.domain,
    status: hold.status,
    reference: hold.reference,
    amount: hold.amount,
    message: hold.gatewayResponse,
    gateway_response: { authorizeResponse: hold.gatewayResponse, rrn: null },
    currency: hold.currency,
    metadata: null,
    fees: hold.fees ?? 0,
    authorization: authorization ? authorizationToWire(authorization) : {},
    customer: customer ? customerToWire(customer) : { email: hold.email },
    transaction_id: capture ? String(capture.id) : null,
    captured_amount: hold.capturedAmount === null ? null : String(hold.capturedAmount),
    captured_at: iso(hold.capturedAt),
    released_at: iso(hold.releasedAt),
    created_at: iso(hold.createdAt),
    // Simulator extension (authorize-only checkout): when the customer authorized it.
    ...(hold.accessCode ? { authorized_at: iso(hold.authorizedAt ?? null) } : {}),
    expiry_date: null,
    expire_action: 'release',
  };
}

/** Release Preauthorization answers only this (API reference sample: `{ status, reference }`, plus `id`). */
export function releasedHoldToWire(hold: HoldRecord) {
  return { id: hold.id, status: hold.status, reference: hold.reference };
}

/**
 * A refund as List Refunds answers it (API reference "List Refunds"): the transaction is named by its
 * id only.
 */
export function refundListEntryToWire(account: Account, refund: RefundRecord) {
  const { transaction, transaction_reference: _reference, ...rest } = refundToWire(account, refund);
  return { ...rest, transaction: transaction.id };
}

/**
 * A `refund.*` webhook's `data`, exactly as Paystack documents it (guide "Refunds", doc-code-snippets
 * `dist/doc/payments/refunds/events.js`): no refund id, the transaction's reference, the
 * processor's `refund_reference` (null until processed) and the amount as a digit string.
 */
export function refundEventToWire(account: Account, refund: RefundRecord, customer: CustomerRecord | undefined) {
  return {
    status: refund.status,
    transaction_reference: refund.transactionReference,
    refund_reference: refund.status === 'pending' ? null : `${refund.id}${refund.createdAt.getTime()}`,
    amount: String(refund.amount),
    currency: refund.currency,
    processor: 'instant-transfer',
    customer: customer ? { first_name: customer.firstName, last_name: customer.lastName, email: customer.email } : null,
    integration: account.integrationId,
    domain: account.domain,
  };
}

export function refundToWire(account: Account, refund: RefundRecord) {
  return {
    id: refund.id,
    integration: account.integrationId,
    domain: account.domain,
    transaction: { id: refund.transactionId, reference: refund.transactionReference },
    transaction_reference: refund.transactionReference,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    merchant_note: refund.merchantNote,
    created_at: iso(refund.createdAt),
    updated_at: iso(refund.updatedAt),
  };
}

/**
 * Resolve Account Number's `data` (PaystackOSS/openapi `VerificationResolveAccountNumberResponse`;
 * doc-code-snippets `dist/doc/identity/account/resolve.js`): the number as a string, the bank's id.
 */
export function resolvedAccountToWire(resolved: ResolvedAccount) {
  return { account_number: resolved.accountNumber, account_name: resolved.accountName, bank_id: resolved.bank.id };
}

/** A transfer recipient as Create Transfer Recipient answers it (camelCase timestamps, as documented). */
export function recipientToWire(account: Account, recipient: RecipientRecord) {
  return {
    active: true,
    createdAt: iso(recipient.createdAt),
    currency: recipient.currency,
    domain: account.domain,
    id: recipient.id,
    integration: account.integrationId,
    name: recipient.name,
    recipient_code: recipient.recipientCode,
    type: recipient.type,
    updatedAt: iso(recipient.createdAt),
    is_deleted: false,
    details: {
      authorization_code: null,
      account_number: recipient.accountNumber,
      account_name: recipient.accountName,
      bank_code: recipient.bankCode,
      bank_name: recipient.bankName,
    },
  };
}

/**
 * A transfer. Initiate and Finalize Transfer answer the recipient as its numeric id; Verify
 * Transfer and the `transfer.*` events carry the recipient object (API reference samples).
 */
export function transferToWire(account: Account, transfer: TransferRecord, recipientAs: 'object' | 'id' = 'object') {
  const recipient = account.recipients.find(transfer.recipientCode);
  return {
    id: transfer.id,
    integration: account.integrationId,
    domain: account.domain,
    transfer_code: transfer.transferCode,
    reference: transfer.reference,
    amount: transfer.amount,
    currency: transfer.currency,
    source: 'balance',
    source_details: null,
    reason: transfer.reason,
    status: transfer.status,
    failures: transfer.failureReason,
    titan_code: null,
    gateway_response: transfer.failureReason,
    recipient:
      recipientAs === 'id' ? (recipient?.id ?? null) : recipient ? recipientToWire(account, recipient) : { recipient_code: transfer.recipientCode },
    transferred_at: iso(transfer.transferredAt),
    createdAt: iso(transfer.createdAt),
    updatedAt: iso(transfer.updatedAt),
  };
}

/** Add Evidence's answer (API reference sample: camelCase timestamps). */
export function disputeEvidenceToWire(dispute: DisputeRecord, evidence: DisputeEvidence) {
  return {
    customer_email: evidence.customerEmail,
    customer_name: evidence.customerName,
    customer_phone: evidence.customerPhone,
    service_details: evidence.serviceDetails,
    delivery_address: evidence.deliveryAddress,
    delivery_date: evidence.deliveryDate,
    dispute: dispute.id,
    id: evidence.id,
    createdAt: iso(evidence.createdAt),
    updatedAt: iso(evidence.createdAt),
  };
}

/**
 * A dispute as the `charge.dispute.*` events carry it (PaystackOSS/doc-code-snippets
 * `dist/doc/payments/webhooks/events.js`): `transaction_reference` is null — the reference is in
 * `transaction.reference` — and the due and resolution times are camelCase (`dueAt`,
 * `resolvedAt`) beside snake_case `created_at` / `updated_at`.
 */
export function disputeToWire(account: Account, dispute: DisputeRecord) {
  const transaction = account.transactions.findByReference(dispute.transactionReference);
  const customer = transaction ? account.customers.findByCode(transaction.customerCode) : undefined;
  const authorization = transaction?.authorizationCode ? account.authorizations.find(transaction.authorizationCode) : undefined;
  return {
    id: dispute.id,
    refund_amount: dispute.refundAmount,
    currency: dispute.currency,
    status: dispute.status,
    resolution: dispute.resolution,
    domain: account.domain,
    transaction: transaction ? transactionToWire(account, transaction) : null,
    transaction_reference: null,
    category: dispute.category,
    customer: customer ? customerToWire(customer) : null,
    bin: authorization?.bin ?? null,
    last4: authorization?.last4 ?? null,
    dueAt: iso(dispute.dueAt),
    resolvedAt: iso(dispute.resolvedAt),
    evidence: dispute.evidence ? disputeEvidenceToWire(dispute, dispute.evidence) : null,
    attachments: null,
    note: dispute.note,
    history: dispute.history.map((entry) => ({ status: entry.status, by: entry.by, createdAt: iso(entry.createdAt) })),
    messages: dispute.reason === null ? [] : [{ sender: 'customer', body: dispute.reason, createdAt: iso(dispute.createdAt) }],
    created_at: iso(dispute.createdAt),
    updated_at: iso(dispute.updatedAt),
  };
}
