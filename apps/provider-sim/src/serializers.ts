import type { Account } from './state/accounts';
import type { AuthorizationRecord } from './state/authorizations';
import type { CustomerRecord } from './state/customers';
import type { DedicatedAccountRecord } from './state/dedicated-accounts';
import type { DisputeEvidence, DisputeRecord } from './state/disputes';
import type { HoldRecord } from './state/holds';
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

export function dedicatedAccountToWire(account: Account, dedicated: DedicatedAccountRecord) {
  const customer = account.customers.findByCode(dedicated.customerCode);
  return {
    id: dedicated.id,
    account_number: dedicated.accountNumber,
    account_name: dedicated.accountName,
    bank: { id: dedicated.bank.id, name: dedicated.bank.name, slug: dedicated.bank.slug },
    currency: 'NGN',
    assigned: true,
    active: true,
    customer: customer
      ? { id: customer.id, customer_code: customer.customerCode, email: customer.email }
      : { customer_code: dedicated.customerCode },
    created_at: iso(dedicated.createdAt),
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
    amount: transaction.amount,
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

export function holdToWire(hold: HoldRecord) {
  return {
    reference: hold.reference,
    status: hold.status === 'captured' ? 'success' : hold.status,
    amount: hold.capturedAmount ?? hold.amount,
    reserved_amount: hold.amount,
    currency: hold.currency,
    fees: hold.fees,
    authorization_code: hold.authorizationCode,
    gateway_response: hold.gatewayResponse,
    created_at: iso(hold.createdAt),
    updated_at: iso(hold.updatedAt),
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

export function recipientToWire(recipient: RecipientRecord) {
  return {
    id: recipient.id,
    recipient_code: recipient.recipientCode,
    type: recipient.type,
    name: recipient.name,
    currency: recipient.currency,
    active: true,
    details: {
      account_number: recipient.accountNumber,
      account_name: recipient.accountName,
      bank_code: recipient.bankCode,
      bank_name: recipient.bankName,
    },
    created_at: iso(recipient.createdAt),
  };
}

export function transferToWire(account: Account, transfer: TransferRecord) {
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
    reason: transfer.reason,
    status: transfer.status,
    failures: transfer.failureReason,
    gateway_response: transfer.failureReason,
    recipient: recipient ? recipientToWire(recipient) : { recipient_code: transfer.recipientCode },
    transferred_at: iso(transfer.transferredAt),
    created_at: iso(transfer.createdAt),
    updated_at: iso(transfer.updatedAt),
  };
}

export function disputeEvidenceToWire(dispute: DisputeRecord, evidence: DisputeEvidence) {
  return {
    id: evidence.id,
    dispute: dispute.id,
    customer_email: evidence.customerEmail,
    customer_name: evidence.customerName,
    customer_phone: evidence.customerPhone,
    service_details: evidence.serviceDetails,
    delivery_address: evidence.deliveryAddress,
    delivery_date: evidence.deliveryDate,
    created_at: iso(evidence.createdAt),
  };
}

export function disputeToWire(account: Account, dispute: DisputeRecord) {
  const transaction = account.transactions.findByReference(dispute.transactionReference);
  const customer = transaction ? account.customers.findByCode(transaction.customerCode) : undefined;
  return {
    id: dispute.id,
    domain: account.domain,
    status: dispute.status,
    resolution: dispute.resolution,
    category: dispute.category,
    reason: dispute.reason,
    refund_amount: dispute.refundAmount,
    currency: dispute.currency,
    transaction_reference: dispute.transactionReference,
    transaction: transaction ? transactionToWire(account, transaction) : null,
    customer: customer ? customerToWire(customer) : null,
    evidence: dispute.evidence ? disputeEvidenceToWire(dispute, dispute.evidence) : null,
    history: dispute.history.map((entry) => ({ status: entry.status, by: entry.by, created_at: iso(entry.createdAt) })),
    due_at: iso(dispute.dueAt),
    resolved_at: iso(dispute.resolvedAt),
    created_at: iso(dispute.createdAt),
    updated_at: iso(dispute.updatedAt),
  };
}
