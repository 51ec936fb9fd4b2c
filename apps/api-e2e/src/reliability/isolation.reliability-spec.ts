import { randomBytes, randomInt } from 'node:crypto';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, customerWithSavedCard, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { WebhookReceiver } from '../support/webhook-receiver';
import { appRoutes, catalogMerchantRoutes, documentedMerchantRoutes, type InventoryRoute } from './route-inventory';

/**
 * Reliability row 10 (isolation, generated). The route inventory is the OpenAPI document the
 * running gateway serves, cross-checked against the app's router and the route-access catalog.
 * Developer A makes one object of every kind (a factory per kind below); every route that names an
 * object (in its path, or in its body) is then called by developer B and by A's key of the other
 * mode, and must answer exactly as it answers for a never-existing id of the same form: same
 * status, same body once the id is replaced by a placeholder, none of A's identifiers in it. A's
 * objects read the same before and after (mutating routes included). Every list and summary route
 * answers B and A's other mode without any of A's identifiers. A new route fails the
 * classification test until it is given a factory, a body probe or a written reason.
 */

type ObjectKind =
  | 'customer'
  | 'webhook'
  | 'webhookLog'
  | 'pendingPayment'
  | 'paidPayment'
  | 'dispute'
  | 'refund'
  | 'paymentBatch'
  | 'scheduledPayment'
  | 'paymentIntent'
  | 'subaccount'
  | 'virtualAccount'
  | 'plan'
  | 'subscription'
  | 'invoice'
  | 'export'
  | 'savedCard'
  | 'transfer'
  | 'transferBatch'
  | 'transferRecipient'
  | 'request';

/** One of A's objects: its id, and the owner's reads that must answer the same before and after the probes. */
interface Owned {
  id: string;
  /** Made with A's live key (transfers exist in live mode only). */
  live?: boolean;
  /** Owner reads (paths under /api/v1) that stay byte-identical while others probe the object. */
  reads: string[];
}

/** Routes naming an object in their path: which kind of A's object fills the parameter, and a body valid for the route. */
const PATH_ROUTES: Record<string, { object: ObjectKind; body?: unknown }> = {
  'GET /api/v1/customers/:ref': { object: 'customer' },
  'GET /api/v1/customers/:ref/payments': { object: 'customer' },
  'GET /api/v1/webhooks/:id': { object: 'webhook' },
  'GET /api/v1/webhooks/:id/logs': { object: 'webhook' },
  'PATCH /api/v1/webhooks/:id': { object: 'webhook', body: { events: ['customer.created', 'payment.success'], rotate_secret: true } },
  'DELETE /api/v1/webhooks/:id': { object: 'webhook' },
  'POST /api/v1/webhooks/:id/enable': { object: 'webhook' },
  'POST /api/v1/webhooks/:id/replay': { object: 'webhook', body: { since: new Date(Date.now() - 3_600_000).toISOString() } },
  'GET /api/v1/requests/:request_id': { object: 'request' },
  'POST /api/v1/webhooks/logs/:log_id/retry': { object: 'webhookLog' },
  'GET /api/v1/payments/:reference': { object: 'pendingPayment' },
  'POST /api/v1/sandbox/payments/:reference/complete': { object: 'pendingPayment', body: { outcome: 'success' } },
  'POST /api/v1/sandbox/payments/:reference/dispute': { object: 'paidPayment' },
  'DELETE /api/v1/payments/:reference/schedule': { object: 'scheduledPayment' },
  'GET /api/v1/payments/bulk/:batch_ref': { object: 'paymentBatch' },
  'GET /api/v1/disputes/:reference': { object: 'dispute' },
  'PATCH /api/v1/disputes/:reference': {
    object: 'dispute',
    body: { customer_email: 'owner@example.com', customer_name: 'Ada Lovelace', customer_phone: '+2348012345678', service_details: 'Delivered in full' },
  },
  'POST /api/v1/sandbox/disputes/:reference/resolve': { object: 'dispute', body: { outcome: 'won' } },
  'GET /api/v1/refunds/:reference': { object: 'refund' },
  'GET /api/v1/payment-intents/:reference': { object: 'paymentIntent' },
  'POST /api/v1/payment-intents/:reference/capture': { object: 'paymentIntent', body: {} },
  'POST /api/v1/payment-intents/:reference/cancel': { object: 'paymentIntent' },
  'GET /api/v1/subaccounts/:code': { object: 'subaccount' },
  'GET /api/v1/virtual-accounts/:id': { object: 'virtualAccount' },
  'GET /api/v1/virtual-accounts/:id/deposits': { object: 'virtualAccount' },
  'POST /api/v1/virtual-accounts/:id/deactivate': { object: 'virtualAccount' },
  'POST /api/v1/sandbox/virtual-accounts/:id/deposits': { object: 'virtualAccount', body: { amount: 1500 } },
  'GET /api/v1/subscriptions/plans/:id': { object: 'plan' },
  'PATCH /api/v1/subscriptions/plans/:id': { object: 'plan', body: { name: 'Renamed by a stranger' } },
  'POST /api/v1/subscriptions/plans/:id/archive': { object: 'plan' },
  'GET /api/v1/subscriptions/:id': { object: 'subscription' },
  'POST /api/v1/subscriptions/:id/pause': { object: 'subscription' },
  'POST /api/v1/subscriptions/:id/resume': { object: 'subscription' },
  'POST /api/v1/subscriptions/:id/cancel': { object: 'subscription' },
  'GET /api/v1/invoices/:reference': { object: 'invoice' },
  'PATCH /api/v1/invoices/:reference': { object: 'invoice', body: { due_date: dateIn(30) } },
  'DELETE /api/v1/invoices/:reference': { object: 'invoice' },
  'GET /api/v1/exports/:reference': { object: 'export' },
  'GET /api/v1/exports/:reference/download': { object: 'export' },
  'GET /api/v1/transfers/:reference': { object: 'transfer' },
  'GET /api/v1/transfers/bulk/:batch_reference': { object: 'transferBatch' },
};

/** Routes with a path parameter whose object A cannot make here, each with the reason. */
const NOT_MADE: Record<string, string> = {
  'GET /api/v1/wallet/settlements/:reference':
    'a settlement is a live withdrawal asked for in the portal with a TOTP step-up and a registered bank account; the settlements e2e proves another account and a test key get settlement_not_found',
};

/**
 * Routes naming another object in their body: each probe builds the body around one of A's ids
 * (the other fields valid for the caller where the caller has such objects). Several probes may
 * share a route, one per field.
 */
interface BodyProbe {
  signature: string;
  object: ObjectKind;
  field: string;
  body: (id: string, caller: Caller) => unknown;
}
const BODY_PROBES: BodyProbe[] = [
  { signature: 'POST /api/v1/payments/verify', object: 'pendingPayment', field: 'reference', body: (id) => ({ reference: id }) },
  { signature: 'POST /api/v1/refunds', object: 'paidPayment', field: 'payment_reference', body: (id) => ({ payment_reference: id, amount: 100 }) },
  { signature: 'POST /api/v1/payments/charge', object: 'savedCard', field: 'authorization_code', body: (id) => ({ authorization_code: id, email: buyer(), amount: 1000 }) },
  { signature: 'POST /api/v1/payments/initialize', object: 'savedCard', field: 'authorization_code', body: (id) => ({ amount: 1000, email: buyer(), authorization_code: id, charge_at: inDays(2) }) },
  { signature: 'POST /api/v1/payments/initialize', object: 'subaccount', field: 'splits.subaccount', body: (id) => ({ amount: 1000, email: buyer(), splits: [{ subaccount: id, share: 0.5 }] }) },
  { signature: 'POST /api/v1/payments/preview', object: 'subaccount', field: 'splits.subaccount', body: (id) => ({ amount: 1000, splits: [{ subaccount: id, share: 0.5 }] }) },
  {
    signature: 'POST /api/v1/payments/bulk',
    object: 'savedCard',
    field: 'items.authorization_code',
    body: (id) => ({ items: [{ type: 'charge', authorization_code: id, email: buyer(), amount: 1000 }] }),
  },
  {
    signature: 'POST /api/v1/payment-intents',
    object: 'savedCard',
    field: 'authorization_code',
    body: (id) => ({ amount: 1000, email: buyer(), capture_method: 'manual', authorization_code: id }),
  },
  { signature: 'POST /api/v1/webhooks/test', object: 'webhook', field: 'webhook_id', body: (id) => ({ webhook_id: id }) },
  { signature: 'POST /api/v1/virtual-accounts', object: 'customer', field: 'customer_reference', body: (id) => ({ customer_reference: id }) },
  {
    signature: 'POST /api/v1/invoices',
    object: 'customer',
    field: 'customer_reference',
    body: (id) => ({ customer_reference: id, due_date: dateIn(7), currency: 'NGN', line_items: [{ description: 'Probe', quantity: 1, unit_price: 100 }] }),
  },
  {
    signature: 'POST /api/v1/subscriptions',
    object: 'plan',
    field: 'plan_id',
    body: (id, caller) => ({ customer_reference: caller.own.customer, plan_id: id, authorization_code: caller.own.card }),
  },
  {
    signature: 'POST /api/v1/subscriptions',
    object: 'customer',
    field: 'customer_reference',
    body: (id, caller) => ({ customer_reference: id, plan_id: caller.own.plan, authorization_code: caller.own.card }),
  },
  {
    signature: 'POST /api/v1/subscriptions',
    object: 'savedCard',
    field: 'authorization_code',
    body: (id, caller) => ({ customer_reference: caller.own.customer, plan_id: caller.own.plan, authorization_code: id }),
  },
  { signature: 'POST /api/v1/transfers', object: 'transferRecipient', field: 'recipient', body: (id) => ({ amount: 100, source: 'wallet', recipient: id, reason: 'Probe' }) },
  { signature: 'POST /api/v1/transfers/bulk', object: 'transferRecipient', field: 'items.recipient', body: (id) => ({ items: [{ amount: 100, source: 'wallet', recipient: id }] }) },
];

/** Routes without a path parameter that name no existing object: they only create the caller's own, or act on the caller's own account. */
const NAMES_NO_OBJECT: Record<string, string> = {
  'POST /api/v1/customers': 'creates the caller’s customer',
  'POST /api/v1/webhooks': 'creates the caller’s endpoint',
  'POST /api/v1/subaccounts': 'creates the caller’s sub-account',
  'POST /api/v1/subscriptions/plans': 'creates the caller’s plan',
  'POST /api/v1/exports': 'exports the caller’s own rows',
  'POST /api/v1/transfers/recipients': 'creates the caller’s recipient',
  // These act on every object of the caller's account: run by B and by A's live key, none of A's test objects may change (checked at the end).
  'POST /api/v1/sandbox/scans/abandoned-payments/run': 'scans the caller’s account; A’s objects re-read unchanged',
  'POST /api/v1/sandbox/scans/scheduled-charges/run': 'scans the caller’s account; A’s objects re-read unchanged',
  'POST /api/v1/sandbox/scans/payment-intent-expiry/run': 'scans the caller’s account; A’s objects re-read unchanged',
  'POST /api/v1/sandbox/clock/advance': 'moves the caller’s test clock; A’s clock and objects re-read unchanged',
  'POST /api/v1/sandbox/clock/reset': 'resets the caller’s test clock; A’s clock and objects re-read unchanged',
};

/** Bodies for the account-wide routes above, run by the probing callers. */
const ACCOUNT_WIDE_CALLS: Array<{ signature: string; body: unknown }> = [
  { signature: 'POST /api/v1/sandbox/clock/advance', body: { seconds: 400 * 86_400 } },
  { signature: 'POST /api/v1/sandbox/scans/abandoned-payments/run', body: {} },
  { signature: 'POST /api/v1/sandbox/scans/scheduled-charges/run', body: {} },
  { signature: 'POST /api/v1/sandbox/scans/payment-intent-expiry/run', body: {} },
  { signature: 'POST /api/v1/sandbox/clock/reset', body: {} },
];

interface Caller {
  label: string;
  key: string;
  /** The caller's own objects for body probes that need other fields valid (B's test context only). */
  own: { customer?: string; plan?: string; card?: string };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

function dateIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A 10-digit account number of its own per call. */
const accountNumber = () => `1${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;

/**
 * An id of the same form that was never issued: its last eight letters and digits replaced by
 * random ones of the same class (digit, hex letter, other letter, same case), so a route that
 * checks the form answers both alike and only the lookup can tell them apart.
 */
export function neverIssued(id: string): string {
  const chars = [...id];
  let changed = 0;
  for (let i = chars.length - 1; i >= 0 && changed < 8; i--) {
    const c = chars[i];
    const pool = /\d/.test(c) ? '0123456789' : /[a-f]/.test(c) ? 'abcdef' : /[A-F]/.test(c) ? 'ABCDEF' : /[a-z]/.test(c) ? 'abcdefghijklmnopqrstuvwxyz' : /[A-Z]/.test(c) ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '';
    if (!pool) continue;
    chars[i] = pool[randomInt(pool.length)];
    changed++;
  }
  const made = chars.join('');
  return made === id ? neverIssued(id) : made;
}

const fill = (path: string, id: string) => path.replace(/:[A-Za-z_]+/, encodeURIComponent(id));
const placeholder = (text: string, id: string) => text.split(id).join('<id>');
/** Sandbox routes refuse a live key, transfer routes a test key, before any lookup: such a comparison proves less. */
const refusedForMode = (answer: HttpResult) => answer.status === 403 && ['test_mode_required', 'live_mode_required'].includes(String(answer.body?.code));

describe('reliability: another developer or the other mode is answered exactly like a missing object, on every route', () => {
  let h: PaymentsHarness;
  let receiver: WebhookReceiver;
  let receiverUrl: string;
  let inventory: InventoryRoute[];
  let a: TestMerchant;
  let aLive: string;
  let b: TestMerchant;
  let bLive: string;
  let bOwn: Caller['own'] = {};
  let aLiveOwn: Caller['own'] = {};
  const owned = new Map<ObjectKind, Owned>();
  /** Every identifier of A's that no other caller may ever see: ids, e-mails, names. */
  const secrets = { test: new Set<string>(), live: new Set<string>() };
  let calls = 0;
  const counts = { pathComparisons: 0, pathLookups: 0, bodyComparisons: 0, bodyLookups: 0, listReads: 0, listsShowingOwner: 0, routesCovered: new Set<string>() };

  const api = (key: string, method: string, path: string, body?: unknown): Promise<HttpResult> => {
    calls++;
    return http(h.gateway.baseUrl, method, path.startsWith('/api/') ? path : `/api/v1${path}`, { token: key, body: body ?? (method === 'GET' || method === 'DELETE' ? undefined : {}) });
  };
  const made = async (key: string, method: string, path: string, body: unknown, field: string, status = 201): Promise<string> => {
    const res = await api(key, method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return String(res.body.data[field]);
  };

  /** A's objects, made in test mode (transfers in live mode) through the public API. */
  async function makeObjects(): Promise<void> {
    const own = (kind: ObjectKind, id: string, reads: string[], live = false) => {
      owned.set(kind, { id, reads, live });
      (live ? secrets.live : secrets.test).add(id);
    };
    const withCard = await customerWithSavedCard(h, '4084084084084081', a);
    calls += 3;
    secrets.test.add(withCard.email);
    own('savedCard', withCard.code, []);

    const customerEmail = `owner-${randomBytes(5).toString('hex')}@example.com`;
    secrets.test.add(customerEmail);
    const created = await api(a.key, 'POST', '/customers', { email: customerEmail, name: 'Ada Lovelace', phone: '+2348012345678' });
    const customer = created.body.data.reference as string;
    // The request that made it: its trace is A's too.
    own('request', created.headers.get('x-request-id') as string, []);
    own('customer', customer, [`/customers/${customer}`, `/customers/${customer}/payments`, '/virtual-accounts', '/invoices', '/subscriptions']);

    const webhook = await made(a.key, 'POST', '/webhooks', { url: `${receiverUrl}?owner`, events: ['customer.created'], webhook_version: 'v1' }, 'id');
    own('webhook', webhook, [`/webhooks/${webhook}`]);
    const log = await made(a.key, 'POST', '/webhooks/test', { webhook_id: webhook }, 'log_id', 200);
    own('webhookLog', log, [`/webhooks/${webhook}/logs`]);

    const pending = await made(a.key, 'POST', '/payments/initialize', { amount: 2500, email: buyer() }, 'reference');
    own('pendingPayment', pending, [`/payments/${pending}`]);

    const paid = await made(a.key, 'POST', '/payments/initialize', { amount: 50_000, email: buyer() }, 'reference');
    await made(a.key, 'POST', `/sandbox/payments/${paid}/complete`, { outcome: 'success' }, 'reference', 200);
    own('paidPayment', paid, [`/payments/${paid}`, '/disputes', '/refunds']);

    const disputed = await made(a.key, 'POST', '/payments/initialize', { amount: 20_000, email: buyer() }, 'reference');
    await made(a.key, 'POST', `/sandbox/payments/${disputed}/complete`, { outcome: 'success' }, 'reference', 200);
    const dispute = await made(a.key, 'POST', `/sandbox/payments/${disputed}/dispute`, {}, 'reference');
    own('dispute', dispute, [`/disputes/${dispute}`]);

    const refund = await made(a.key, 'POST', '/refunds', { payment_reference: paid, amount: 1000 }, 'reference');
    own('refund', refund, [`/refunds/${refund}`]);

    const batch = await made(a.key, 'POST', '/payments/bulk', { items: [{ type: 'initialize', amount: 700, email: buyer() }] }, 'batch_reference', 202);
    own('paymentBatch', batch, []);

    const scheduled = await made(
      a.key,
      'POST',
      '/payments/initialize',
      { amount: 3000, email: withCard.email, authorization_code: withCard.code, charge_at: new Date(h.gateway.clock.now().getTime() + 2 * 86_400_000).toISOString() },
      'reference',
    );
    own('scheduledPayment', scheduled, [`/payments/${scheduled}`]);

    const intent = await made(a.key, 'POST', '/payment-intents', { amount: 4000, email: withCard.email, capture_method: 'manual', authorization_code: withCard.code }, 'intent_reference');
    own('paymentIntent', intent, [`/payment-intents/${intent}`]);

    const subaccount = await made(a.key, 'POST', '/subaccounts', { business_name: 'Owner Supplies', bank_code: '058', account_number: accountNumber() }, 'code');
    own('subaccount', subaccount, [`/subaccounts/${subaccount}`]);

    const virtualAccount = await made(a.key, 'POST', '/virtual-accounts', { customer_reference: customer }, 'id');
    own('virtualAccount', virtualAccount, [`/virtual-accounts/${virtualAccount}`, `/virtual-accounts/${virtualAccount}/deposits`]);

    const plan = await made(a.key, 'POST', '/subscriptions/plans', { name: 'Owner Pro', amount: 5000, interval: 'monthly', trial_period_days: 7 }, 'id');
    own('plan', plan, [`/subscriptions/plans/${plan}`]);
    const cardCustomer = (await api(a.key, 'GET', `/customers?email=${encodeURIComponent(withCard.email)}`)).body.data?.[0]?.reference as string;
    const subscription = await made(a.key, 'POST', '/subscriptions', { customer_reference: cardCustomer, plan_id: plan, authorization_code: withCard.code }, 'id');
    own('subscription', subscription, [`/subscriptions/${subscription}`]);

    const invoice = await made(
      a.key,
      'POST',
      '/invoices',
      { customer_reference: customer, due_date: dateIn(7), currency: 'NGN', line_items: [{ description: 'Owner item', quantity: 2, unit_price: 450 }] },
      'reference',
    );
    own('invoice', invoice, [`/invoices/${invoice}`]);

    const day = 86_400_000;
    const exported = await made(
      a.key,
      'POST',
      '/exports',
      { type: 'payments', from: new Date(Date.now() - 30 * day).toISOString(), to: new Date(Date.now() + day).toISOString() },
      'reference',
      202,
    );
    // Its status moves on as it is written: nothing to re-read byte for byte.
    own('export', exported, []);

    // Live mode: transfers exist there only. A's live wallet is funded by one paid live payment.
    await fundLive(aLive);
    const recipient = await made(aLive, 'POST', '/transfers/recipients', { bank_code: '058', account_number: accountNumber() }, 'recipient_code');
    own('transferRecipient', recipient, ['/transfers/recipients'], true);
    // Transfers settle at the simulator on their own: their status is no byte-stable read.
    const transfer = await made(aLive, 'POST', '/transfers', { amount: 500, source: 'wallet', recipient, reason: 'Owner payout' }, 'reference');
    own('transfer', transfer, [], true);
    const transferBatch = await made(aLive, 'POST', '/transfers/bulk', { items: [{ amount: 300, source: 'wallet', recipient }] }, 'batch_reference');
    own('transferBatch', transferBatch, [], true);
  }

  async function fundLive(liveKey: string): Promise<void> {
    const reference = await made(liveKey, 'POST', '/payments/initialize', { amount: 10_000, email: buyer() }, 'reference');
    calls++;
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.live, body: {} });
    const verified = await api(liveKey, 'POST', '/payments/verify', { reference });
    if (verified.body.data?.status !== 'success') throw new Error(`live funding failed: ${verified.text}`);
  }

  /** A live customer of `liveKey`'s account who paid once with a card, leaving it saved. */
  async function liveCardCustomer(liveKey: string): Promise<{ customer: string; card: string }> {
    const email = buyer();
    secrets.live.add(email);
    const reference = await made(liveKey, 'POST', '/payments/initialize', { amount: 1000, email }, 'reference');
    calls++;
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.live, body: { card: '4084084084084081' } });
    const verified = await api(liveKey, 'POST', '/payments/verify', { reference });
    const customer = (await api(liveKey, 'GET', `/customers?email=${encodeURIComponent(email)}`)).body.data[0].reference as string;
    return { customer, card: verified.body.data.authorization.authorization_code as string };
  }

  /** The callers that must not see A's object: B with the object's mode, and A with the other mode. */
  const probersOf = (object: Owned, bOwn: Caller['own']): Caller[] =>
    object.live
      ? [
          { label: 'another developer', key: bLive, own: {} },
          { label: 'the other mode', key: a.key, own: {} },
        ]
      : [
          { label: 'another developer', key: b.key, own: bOwn },
          { label: 'the other mode', key: aLive, own: aLiveOwn },
        ];

  const ownerKey = (object: Owned) => (object.live ? aLive : a.key);
  const snapshot = async (object: Owned): Promise<string[]> => Promise.all(object.reads.map(async (path) => (await api(ownerKey(object), 'GET', path)).text));

  /** Asserts that `target` (about A's `id`) is `baseline` (about a never-issued id) to the byte once the ids are masked, and leaks nothing. */
  function expectLikeMissing(what: string, target: HttpResult, id: string, baseline: HttpResult, missing: string): void {
    expect([what, target.status, placeholder(target.text, id)]).toEqual([what, baseline.status, placeholder(baseline.text, missing)]);
    const masked = placeholder(target.text, id);
    const leaked = [...secrets.test, ...secrets.live].filter((s) => masked.includes(s));
    expect([what, leaked]).toEqual([what, []]);
  }

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
    h = await startPaymentsHarness({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_TIMEOUT_MS: '3000' });
    inventory = await documentedMerchantRoutes(h.gateway);
    a = await createMerchant(h.gateway, { identityVerified: true });
    aLive = (await a.issueKey({ mode: 'live' })).key;
    b = await createMerchant(h.gateway, { identityVerified: true });
    bLive = (await b.issueKey({ mode: 'live' })).key;
    secrets.test.add(a.email);
    secrets.live.add(a.email);
    await makeObjects();
    // B's own customer, plan and card, so that a body probe's other fields are valid for B.
    const bCard = await customerWithSavedCard(h, '4084084084084081', b);
    calls += 3;
    const bCustomer = (await api(b.key, 'GET', `/customers?email=${encodeURIComponent(bCard.email)}`)).body.data[0].reference as string;
    const bPlan = await made(b.key, 'POST', '/subscriptions/plans', { name: 'Prober plan', amount: 1000, interval: 'monthly', trial_period_days: 7 }, 'id');
    bOwn = { customer: bCustomer, plan: bPlan, card: bCard.code };
    // B's live wallet holds money, so that a transfer naming A's recipient is refused for the recipient, not the balance.
    await fundLive(bLive);
    // A's live customer, card and plan, so that A's live key probing a test object's id gets that far too.
    const liveCard = await liveCardCustomer(aLive);
    aLiveOwn = { ...liveCard, plan: await made(aLive, 'POST', '/subscriptions/plans', { name: 'Live plan', amount: 1000, interval: 'monthly', trial_period_days: 7 }, 'id') };
  }, 300_000);
  afterAll(async () => {
    // The row's figures (docs/reliability.md, row 10).
    if (calls > 0) process.stdout.write(
      `isolation: ${inventory.length} merchant routes; ${counts.routesCovered.size} covered (${Object.keys(PATH_ROUTES).length} by path, ${new Set(BODY_PROBES.map((p) => p.signature)).size} by body, ${inventory.filter((r) => r.method === 'GET' && r.params.length === 0).length} lists, ${ACCOUNT_WIDE_CALLS.length} account-wide), ${Object.keys(NOT_MADE).length} not made; ` +
        `${counts.pathComparisons} path comparisons (${counts.pathLookups} reaching the lookup), ${counts.bodyComparisons} body comparisons (${counts.bodyLookups} reaching the lookup), ` +
        `${counts.listReads} list reads; ${calls} API calls in all; lists showing A's objects to A: ${counts.listsShowingOwner}\n`,
    );
    await h?.close();
    await receiver?.close();
  });

  it('takes its route inventory from the served OpenAPI document, which agrees with the router and the route-access catalog', () => {
    expect(inventory.length).toBeGreaterThan(50);
    expect(inventory.map((r) => r.signature)).toEqual(catalogMerchantRoutes());
    expect(inventory.filter((r) => !appRoutes(h.gateway, r)).map((r) => r.signature)).toEqual([]);
  });

  it('classifies every route: an object factory, a written reason, a body probe, a list check, or no object named', () => {
    const unclassified: string[] = [];
    const doubled: string[] = [];
    for (const route of inventory) {
      const classes = [
        route.params.length > 0 && route.signature in PATH_ROUTES,
        route.signature in NOT_MADE,
        BODY_PROBES.some((p) => p.signature === route.signature),
        route.params.length === 0 && route.method === 'GET',
        route.signature in NAMES_NO_OBJECT,
      ].filter(Boolean).length;
      if (classes === 0) unclassified.push(route.signature);
      if (classes > 1) doubled.push(route.signature);
    }
    expect({ unclassified, doubled }).toEqual({ unclassified: [], doubled: [] });
    const known = new Set(inventory.map((r) => r.signature));
    const stale = [...Object.keys(PATH_ROUTES), ...Object.keys(NOT_MADE), ...Object.keys(NAMES_NO_OBJECT), ...BODY_PROBES.map((p) => p.signature)].filter((s) => !known.has(s));
    expect(stale).toEqual([]);
  });

  it('shows none of A’s identifiers in any list or summary route to B (either mode) or to A’s other mode, while A’s own lists show them', async () => {
    const reads = inventory.filter((r) => r.method === 'GET' && r.params.length === 0);
    const seenByOwner = new Set<string>();
    for (const route of reads) {
      const own = [await api(a.key, 'GET', route.path), await api(aLive, 'GET', route.path)];
      if ([...secrets.test, ...secrets.live].some((s) => s !== a.email && own.some((r) => r.text.includes(s)))) seenByOwner.add(route.signature);
      for (const [label, key, forbidden] of [
        ['another developer (test)', b.key, [...secrets.test, ...secrets.live]],
        ['another developer (live)', bLive, [...secrets.test, ...secrets.live]],
        ['the other mode (live key)', aLive, [...secrets.test].filter((s) => s !== a.email)],
        ['the other mode (test key)', a.key, [...secrets.live].filter((s) => s !== a.email)],
      ] as const) {
        const res = await api(key, 'GET', route.path);
        expect([route.signature, label, res.status < 500, forbidden.filter((s) => res.text.includes(s))]).toEqual([route.signature, label, true, []]);
        counts.listReads++;
      }
      counts.routesCovered.add(route.signature);
    }
    // The check can see: A's own lists do show A's objects (customers, payments, webhooks, …).
    expect(seenByOwner.size).toBeGreaterThanOrEqual(10);
    counts.listsShowingOwner = seenByOwner.size;
  }, 120_000);

  it('answers every route naming A’s object in its path or body to B and to A’s other mode exactly as for a never-issued id, and changes nothing', async () => {
    const byObject = new Map<ObjectKind, InventoryRoute[]>();
    for (const route of inventory.filter((r) => r.signature in PATH_ROUTES)) {
      const kind = PATH_ROUTES[route.signature].object;
      byObject.set(kind, [...(byObject.get(kind) ?? []), route]);
    }
    for (const [kind, routes] of byObject) {
      const object = owned.get(kind) as Owned;
      const before = await snapshot(object);
      for (const read of before) expect([kind, JSON.parse(read).success]).toEqual([kind, true]);
      for (const route of routes) {
        for (const caller of probersOf(object, bOwn)) {
          const missing = neverIssued(object.id);
          const body = PATH_ROUTES[route.signature].body;
          const baseline = await api(caller.key, route.method, fill(route.path, missing), body);
          const target = await api(caller.key, route.method, fill(route.path, object.id), body);
          const what = `${route.signature} as ${caller.label}`;
          expectLikeMissing(what, target, object.id, baseline, missing);
          counts.pathComparisons++;
          if (!refusedForMode(baseline)) counts.pathLookups++;
          // B in the object's own mode reaches the lookup: its answer must be the not-found one.
          if (caller.label === 'another developer') expect([what, baseline.status, String(baseline.body?.code)]).toEqual([what, 404, expect.stringMatching(/_not_found$/)]);
          counts.routesCovered.add(route.signature);
        }
        // The owner finds it, so the answers above are the lookup's and not a route that finds nothing.
        if (route.method === 'GET') {
          const owner = await api(ownerKey(object), 'GET', fill(route.path, object.id));
          expect([route.signature, 'owner', owner.status]).not.toEqual([route.signature, 'owner', 404]);
          expect([route.signature, 'owner', owner.status < 500]).toEqual([route.signature, 'owner', true]);
        }
      }
      expect([kind, await snapshot(object)]).toEqual([kind, before]);
    }

    for (const probe of BODY_PROBES) {
      const route = inventory.find((r) => r.signature === probe.signature) as InventoryRoute;
      const object = owned.get(probe.object) as Owned;
      const before = await snapshot(object);
      for (const caller of probersOf(object, bOwn)) {
        const missing = neverIssued(object.id);
        const baseline = await api(caller.key, route.method, route.path, probe.body(missing, caller));
        const target = await api(caller.key, route.method, route.path, probe.body(object.id, caller));
        expectLikeMissing(`${probe.signature} (${probe.field}) as ${caller.label}`, target, object.id, baseline, missing);
        counts.bodyComparisons++;
        if (!refusedForMode(baseline)) counts.bodyLookups++;
        counts.routesCovered.add(probe.signature);
      }
      expect([probe.signature, await snapshot(object)]).toEqual([probe.signature, before]);
    }
  }, 300_000);

  it('leaves A’s objects and test clock as they were after B and A’s other mode run every account-wide sandbox action', async () => {
    const objects = [...owned.values()].filter((o) => o.reads.length > 0);
    const clockBefore = (await api(a.key, 'GET', '/sandbox/clock')).text;
    const before = await Promise.all(objects.map(snapshot));
    for (const { signature, body } of ACCOUNT_WIDE_CALLS) {
      const [method, path] = signature.split(' ');
      for (const key of [b.key, aLive]) {
        const res = await api(key, method, path, body);
        expect([signature, res.status < 500]).toEqual([signature, true]);
      }
      counts.routesCovered.add(signature);
    }
    expect((await api(a.key, 'GET', '/sandbox/clock')).text).toBe(clockBefore);
    expect(await Promise.all(objects.map(snapshot))).toEqual(before);
  }, 120_000);

});
