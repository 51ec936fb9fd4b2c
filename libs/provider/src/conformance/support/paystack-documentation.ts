import type { Shape } from './shape';

/**
 * Facts from Paystack's published material, with where each comes from. Read, not copied: the
 * shapes below list the documented field names and JSON types the gateway relies on.
 */
export const SOURCES = {
  openapi: 'PaystackOSS/openapi dist/paystack.yaml @9678dea922a900b2485969592055ccf634460352',
  apiErrors: 'PaystackOSS/openapi errors/api-errors.json @affa58507051ed264fbbe6e62b3080285341b622',
  snippets: (path: string) => `PaystackOSS/doc-code-snippets ${path} @94af513d752dfc9f85dd0718301e7257091eb7f2`,
  errorsIntro: 'Paystack API reference, Introduction › Errors (doc-code-snippets dist/api/introduction/sample-error.js)',
  preauthorization: 'Paystack API reference, Card Preauthorization (paystack.com/docs/api/preauthorization)',
  recipients: 'Paystack guide, Creating Transfer Recipients (paystack.com/docs/transfers/creating-transfer-recipients)',
  dedicatedAccounts: 'Paystack guide, Dedicated Virtual Accounts (paystack.com/docs/payments/dedicated-virtual-accounts)',
  webhooks: 'Paystack guide, Webhooks › Supported events (doc-code-snippets dist/doc/payments/webhooks/events.js)',
  refundEvents: 'Paystack guide, Refunds › refund events (doc-code-snippets dist/doc/payments/refunds/events.js @25d6209)',
  listRefunds: 'Paystack API reference, Refunds › List Refunds (paystack.com/docs/api/refund; doc-code-snippets dist/api/refunds/list/requests.js)',
  resolveAccount:
    'Paystack API reference, Verification › Resolve Account Number (openapi `/bank/resolve` bank_resolveAccountNumber: query account_number, bank_code; 200 VerificationResolveAccountNumberResponse; doc-code-snippets dist/api/verification/resolve-account/* and the guide sample dist/doc/identity/account/resolve.js)',
  /**
   * Not Paystack's own material: its reference documents no refusal for Resolve Account Number
   * (the OpenAPI lists 200, 401 and its generic 404). A 422 `{status: false, message: "Could not
   * resolve account name. Check parameters or try again."}` is what Paystack answers and what
   * client libraries test for, e.g. this one's `invalid_account?`.
   */
  unresolvableAccount: 'darthrighteous/paystack-gateway lib/paystack_gateway/verification.rb @7cdd93dcd868ca685c239e339f84be6207e6d70b (a client library: 422 with status false = an account Paystack cannot resolve)',
} as const;

/** `{status, message, meta: {nextStep}, type, code}` — the documented error body. */
export const ERROR_BODY: Shape = { status: 'boolean', message: 'string', meta: { nextStep: 'string' }, type: 'string', code: 'string' };
/** Error `type` values: openapi `TransactionInitializeBadRequestModel.type`. */
export const ERROR_TYPES = ['validation_error', 'processor_error', 'api_error'];

/** A card authorization inside a transaction (verify, charge_authorization, charge.success). */
const AUTHORIZATION: Shape = {
  authorization_code: 'string',
  bin: 'string',
  last4: 'string',
  exp_month: 'string',
  exp_year: 'string',
  channel: 'string',
  card_type: 'string',
  bank: 'string',
  country_code: 'string',
  brand: 'string',
  reusable: 'boolean',
  signature: ['string', 'null'],
  account_name: ['string', 'null'],
};

const CUSTOMER: Shape = {
  id: 'integer',
  first_name: ['string', 'null'],
  last_name: ['string', 'null'],
  email: 'string',
  customer_code: 'string',
  phone: ['string', 'null'],
  risk_action: 'string',
};

/** Verify Transaction / Charge Authorization `data` (openapi `VerifyResponse`, snippets transactions/*). */
export const TRANSACTION: Shape = {
  id: 'integer',
  domain: 'string',
  status: 'string',
  reference: 'string',
  amount: 'integer',
  gateway_response: ['string', 'null'],
  channel: 'string',
  currency: 'string',
  fees: ['integer', 'null'],
  paid_at: ['iso-date', 'null'],
  customer: CUSTOMER,
};
export const PAID_TRANSACTION: Shape = { ...TRANSACTION, fees: 'integer', paid_at: 'iso-date', authorization: AUTHORIZATION };

/** Initialize Transaction `data` (openapi `TransactionInitializeResponse`, required fields). */
export const INITIALIZED: Shape = { authorization_url: 'string', access_code: 'string', reference: 'string' };

/** Reserve / Verify Preauthorization `data` (snippets dist/api/preauthorization/{reserve,verify}/response.json). */
export const PREAUTHORIZATION: Shape = {
  id: 'integer',
  domain: 'string',
  status: 'string',
  reference: 'string',
  amount: 'integer',
  currency: 'string',
  fees: 'integer',
  gateway_response: 'object',
  authorization: AUTHORIZATION,
  customer: CUSTOMER,
  created_at: 'iso-date',
  released_at: ['iso-date', 'null'],
  expire_action: 'string',
};
/** Preauthorization statuses seen in the documentation: reserve, verify, list and the preauthorization.* events. */
export const PREAUTHORIZATION_STATUSES = ['authorized', 'captured', 'released', 'failed', 'capture_failed', 'release_failed'];
/** Capture Preauthorization `data`: the capture's transaction (snippets dist/api/preauthorization/capture/response.json). */
export const CAPTURE: Shape = { id: 'integer', amount: 'integer', currency: 'string', status: 'string', reference: 'string', channel: 'string', fees: 'integer', gateway_response: 'string' };
/** Release Preauthorization `data` (snippets dist/api/preauthorization/release/response.json). */
export const RELEASE: Shape = { status: 'string', reference: 'string' };

/** Create Refund `data` (snippets dist/api/refunds/create/response.json). */
export const REFUND: Shape = { id: 'integer', status: 'string', amount: 'integer', currency: 'string', transaction: { reference: 'string' } };
/** A List Refunds entry (API reference "List Refunds"): the transaction by its id only. */
export const LISTED_REFUND: Shape = { id: 'integer', transaction: 'integer', status: 'string', amount: 'integer', currency: 'string' };
/** List Refunds `meta` (API reference "List Refunds"; openapi `Meta`). */
export const PAGE_META: Shape = { total: 'integer', skipped: 'integer', perPage: 'integer', page: 'integer', pageCount: 'integer' };
/**
 * A `refund.*` event's `data` (guide "Refunds", snippets dist/doc/payments/refunds/events.js): no
 * `id`; `refund_reference` is the processor's and null while pending; `amount` a number or a digit string.
 */
export const REFUND_EVENT: Shape = {
  status: 'string',
  transaction_reference: 'string',
  refund_reference: ['string', 'null'],
  amount: ['integer', 'string'],
  currency: 'string',
  processor: 'string',
  integration: 'integer',
  domain: 'string',
};

/** List Banks entry and cursor `meta` (snippets dist/api/miscellaneous/bank/response.json). */
export const BANK: Shape = { name: 'string', slug: 'string', code: 'string', active: 'boolean', country: 'string', currency: 'string', type: 'string', id: 'integer' };
export const BANK_PAGE_META: Shape = { next: ['string', 'null'], previous: ['string', 'null'], perPage: 'integer' };

/**
 * Resolve Account Number `data` (openapi `VerificationResolveAccountNumberResponse`: all three
 * required; the guide's sample has `bank_id: 9`, the API reference's sample omits it).
 */
export const RESOLVED_ACCOUNT: Shape = { account_number: 'string', account_name: 'string', bank_id: 'integer' };
/** The refusal's message, as Paystack words it (see `SOURCES.unresolvableAccount`): for people, never matched on by the adapter. */
export const UNRESOLVABLE_ACCOUNT_MESSAGE = 'Could not resolve account name. Check parameters or try again.';

/** Create Transfer Recipient `data` (openapi `TransferRecipientCreateResponse`, snippets transfer-recipient/create). */
export const RECIPIENT: Shape = {
  active: 'boolean',
  currency: 'string',
  domain: 'string',
  id: 'integer',
  name: 'string',
  recipient_code: 'string',
  type: 'string',
  details: { account_number: 'string', account_name: ['string', 'null'], bank_code: 'string', bank_name: 'string' },
};
/** Recipient types and their currencies (guide "Creating Transfer Recipients"). */
export const RECIPIENT_TYPE_CURRENCIES: Record<string, string[]> = { nuban: ['NGN'], ghipss: ['GHS'], basa: ['ZAR'], kepss: ['KES'], mobile_money: ['GHS', 'KES'] };

/** Initiate Transfer `data` (openapi `TransferCreateResponse`): the recipient is its numeric id. */
export const TRANSFER_CREATED: Shape = {
  domain: 'string',
  amount: 'integer',
  currency: 'string',
  reference: 'string',
  source: 'string',
  status: 'string',
  failures: ['string', 'null'],
  transfer_code: 'string',
  transferred_at: ['iso-date', 'null'],
  id: 'integer',
  integration: 'integer',
  recipient: 'integer',
  createdAt: 'iso-date',
  updatedAt: 'iso-date',
};
/** Verify Transfer `data` (openapi `TransferVerifyResponse`): the recipient as an object. */
export const TRANSFER: Shape = { ...TRANSFER_CREATED, recipient: { recipient_code: 'string', type: 'string', currency: 'string', name: 'string' } };
/** Transfer statuses: openapi List Transfers `status` enum. */
export const TRANSFER_STATUSES = ['pending', 'success', 'failed', 'otp', 'abandoned', 'reversed', 'blocked', 'rejected', 'received'];

/** Create Customer `data` (snippets customers/create). */
export const CUSTOMER_CREATED: Shape = { email: 'string', customer_code: 'string', id: 'integer' };
/** Create Dedicated Virtual Account `data` (openapi `DedicatedNubanCreateResponse`, required fields). */
export const DEDICATED_ACCOUNT: Shape = {
  bank: { name: 'string', id: 'integer', slug: 'string' },
  account_name: 'string',
  account_number: 'string',
  assigned: 'boolean',
  currency: 'string',
  metadata: ['object', 'null'],
  active: 'boolean',
  id: 'integer',
  created_at: 'iso-date',
  updated_at: 'iso-date',
  assignment: { integration: 'integer', assignee_id: 'integer', assignee_type: 'string', expired: 'boolean', account_type: 'string', assigned_at: 'iso-date' },
  customer: { id: 'integer', first_name: 'string', last_name: 'string', email: 'string', customer_code: 'string', phone: 'string', risk_action: 'string' },
};

/** A dispute as charge.dispute.* carry it and Fetch/Resolve Dispute answer it (webhooks guide; snippets disputes/*). */
export const DISPUTE: Shape = {
  id: 'integer',
  refund_amount: ['integer', 'null'],
  currency: ['string', 'null'],
  status: 'string',
  resolution: ['string', 'null'],
  domain: 'string',
  transaction: { reference: 'string', amount: 'integer', currency: 'string' },
  transaction_reference: ['string', 'null'],
  category: ['string', 'null'],
  dueAt: ['iso-date', 'null'],
  resolvedAt: ['iso-date', 'null'],
  history: 'array',
  messages: 'array',
};
export const DISPUTE_STATUSES = ['awaiting-merchant-feedback', 'awaiting-bank-feedback', 'pending', 'resolved', 'archived'];
/** Add Evidence `data` and Fetch Upload URL `data` (snippets disputes/{evidence,upload-url}). */
export const DISPUTE_EVIDENCE: Shape = { customer_email: 'string', customer_name: 'string', customer_phone: 'string', service_details: 'string', dispute: 'integer', id: 'integer' };
export const UPLOAD_URL: Shape = { signedUrl: 'string', fileName: 'string' };

/**
 * A transfer as transfer.success / transfer.failed / transfer.reversed carry it (webhooks guide;
 * its samples disagree on timestamp casing, so none is required here).
 */
export const TRANSFER_EVENT: Shape = {
  amount: 'integer',
  currency: 'string',
  domain: 'string',
  failures: ['string', 'null'],
  id: 'integer',
  integration: ['integer', 'object'],
  reference: 'string',
  source: 'string',
  status: 'string',
  transfer_code: 'string',
  transferred_at: ['iso-date', 'null'],
  recipient: { recipient_code: 'string', type: 'string', currency: 'string', name: 'string' },
};
