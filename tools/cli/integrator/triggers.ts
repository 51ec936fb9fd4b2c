import type { EventName } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import type { GatewayClient } from './gateway-client';

/** What a trigger made, by kind: `{payment: 'PAY-…', refund: 'RFD_…'}`. */
export type Created = Record<string, string>;

/** One step's report: the call and what it answered. */
type Step = (text: string) => void;

interface Trigger {
  /** The sandbox activity, in a few words (shown in --help). */
  how: string;
  run(api: Api): Promise<Created>;
}

/**
 * The events `trigger` can cause, each by the calls an integration (and the sandbox's own
 * test-key-only routes) would make, over HTTP with the test key: nothing is written around the API.
 */
export const TRIGGERS: Partial<Record<EventName, Trigger>> = {
  'payment.success': { how: 'initialize a payment, pay it on the test checkout (success card), verify', run: (api) => api.paidPayment('success') },
  'payment.failed': { how: 'initialize a payment, pay it with the declined test card, verify', run: (api) => api.paidPayment('declined') },
  'customer.created': { how: 'create a customer', run: async (api) => ({ customer: await api.customer() }) },
  'refund.completed': {
    how: 'a successful payment of 10,000, then a refund of 1,000 (completed when the simulator confirms it)',
    run: async (api) => {
      const paid = await api.paidPayment('success', 10_000);
      const refund = await api.call('POST', '/refunds', { payment_reference: paid.payment, amount: 1000, reason: 'sandbox trigger' });
      return { ...paid, refund: refund.reference as string };
    },
  },
  'dispute.created': { how: 'a successful payment, then a test chargeback on it', run: (api) => api.disputedPayment() },
  'dispute.won': { how: 'a disputed payment, decided won by the test bank', run: (api) => api.disputedPayment('won') },
  'dispute.lost': { how: 'a disputed payment, decided lost by the test bank', run: (api) => api.disputedPayment('lost') },
  'virtual_account.credited': {
    how: 'a customer, a virtual account for them, a test bank transfer of 5,000 into it',
    run: async (api) => {
      const customer = await api.customer({ name: 'Ada Lovelace', phone: '+2348012345678' });
      const account = await api.call('POST', '/virtual-accounts', { customer_reference: customer });
      await api.call('POST', `/sandbox/virtual-accounts/${account.id as string}/deposits`, { amount: 5000 });
      return { customer, virtual_account: account.id as string };
    },
  },
  'subscription.charged': { how: 'a paid payment (saving the card), a monthly plan, a subscription charged at once', run: (api) => api.subscription() },
  'subscription.paused': { how: 'a charged subscription, then paused', run: (api) => api.subscription('pause') },
  'subscription.cancelled': { how: 'a charged subscription, then cancelled', run: (api) => api.subscription('cancel') },
};

/** Why the other events of the catalog cannot be triggered from the sandbox. */
export const NOT_TRIGGERABLE: Readonly<Record<string, string>> = {
  'transfer.success': 'transfers move real money and are live-mode only (a test key gets 403 live_mode_required)',
  'transfer.failed': 'transfers move real money and are live-mode only (a test key gets 403 live_mode_required)',
  'withdrawal.completed': 'withdrawals are requested in the portal and approved by platform staff',
  'invoice.paid': 'an invoice is paid by its customer on the payment link page',
  'invoice.partially_paid': 'an invoice is paid by its customer on the payment link page',
  'invoice.overdue': 'needs a sent invoice past its due date: advance the test clock (POST /api/v1/sandbox/clock/advance)',
  'subscription.charge_failed': 'needs a saved card that declines a later charge, which the test cards do not model for saved cards',
  'batch.completed': 'bulk batches are processed by the scheduler (npm start runs it): POST /api/v1/payments/bulk',
  'webhook_endpoint.disabled': 'sent when the gateway disables an endpoint whose deliveries kept failing',
};

/**
 * Causes `event` in the account's test mode and returns what it created.
 * @throws Error for an event it cannot cause (saying why); ApiError when the gateway refuses a step
 */
export async function trigger(client: GatewayClient, event: string, step: Step): Promise<Created> {
  const known = Object.hasOwn(TRIGGERS, event) ? TRIGGERS[event as EventName] : undefined;
  if (!known) {
    const why = Object.hasOwn(NOT_TRIGGERABLE, event) ? NOT_TRIGGERABLE[event] : undefined;
    throw new Error(
      why ? `${event} cannot be triggered from the sandbox: ${why}.` : `${event} is not an event the sandbox can trigger. Supported: ${Object.keys(TRIGGERS).join(', ')}.`,
    );
  }
  return known.run(new Api(client, step));
}

/** The calls the triggers are made of; each reports itself as a step. */
class Api {
  constructor(
    private readonly client: GatewayClient,
    private readonly step: Step,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const answer = await this.client.request<Record<string, unknown>>(method, path, { body });
    const id = answer.data.reference ?? answer.data.id;
    const status = answer.data.status ? ` ${String(answer.data.status)}` : '';
    this.step(`${method} /api/v1${path} → ${answer.status}${id ? ` ${String(id)}` : ''}${status}`);
    return answer.data;
  }

  async customer(fields: Record<string, string> = { name: 'Sandbox Customer' }): Promise<string> {
    return (await this.call('POST', '/customers', { email: buyerEmail(), ...fields })).reference as string;
  }

  /** A test checkout paid with the card for `outcome`; the sandbox route pays it and verifies it, as the customer and then the merchant would. */
  async paidPayment(outcome: 'success' | 'declined', amount = 5000): Promise<Created> {
    const initialized = await this.call('POST', '/payments/initialize', { amount, email: buyerEmail(), currency: 'NGN' });
    const paid = await this.call('POST', `/sandbox/payments/${initialized.reference as string}/complete`, { outcome });
    const authorization = paid.authorization as { authorization_code?: string } | null;
    return {
      payment: paid.reference as string,
      customer: paid.customer_reference as string,
      ...(authorization?.authorization_code ? { authorization_code: authorization.authorization_code } : {}),
    };
  }

  async disputedPayment(outcome?: 'won' | 'lost'): Promise<Created> {
    const paid = await this.paidPayment('success');
    const dispute = await this.call('POST', `/sandbox/payments/${paid.payment}/dispute`);
    if (outcome) await this.call('POST', `/sandbox/disputes/${dispute.reference as string}/resolve`, { outcome });
    return { ...paid, dispute: dispute.reference as string };
  }

  async subscription(then?: 'pause' | 'cancel'): Promise<Created> {
    const paid = await this.paidPayment('success');
    const plan = await this.call('POST', '/subscriptions/plans', { name: 'Sandbox monthly', amount: 2500, interval: 'monthly' });
    const subscription = await this.call('POST', '/subscriptions', { customer_reference: paid.customer, plan_id: plan.id, authorization_code: paid.authorization_code });
    if (then) await this.call('POST', `/subscriptions/${subscription.id as string}/${then}`);
    return { ...paid, plan: plan.id as string, subscription: subscription.id as string };
  }
}

function buyerEmail(): string {
  return `sandbox-${randomBytes(5).toString('hex')}@example.com`;
}
