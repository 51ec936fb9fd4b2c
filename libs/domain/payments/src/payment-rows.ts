import type { Mode, PaymentStatus } from '@gateway/contracts';
import { Amount, type Currency } from '@gateway/platform';
import { PaymentAuthorizationEntity } from './payment-authorization.entity';
import { PaymentEntity, type StoredSplit } from './payment.entity';
import type { PaymentView } from './payment.mapper';

/**
 * Raw rows of the hand-written payment queries (payments.repository.ts) and their mapping to the
 * entities, exactly as TypeORM would map them (numeric(20,2) → Amount, timestamptz → Date, jsonb → objects).
 */
export const PAYMENT_COLUMNS = `p.id, p.developer_id, p.mode, p.reference, p.status, p.customer_id, p.customer_reference, p.email, p.amount, p.currency,
  p.platform_fee, p.provider_fee, p.net_amount, p.amount_refunded, p.callback_url, p.metadata, p.splits, p.idempotency_key, p.idempotency_scope, p.request_hash,
  p.authorization_id, p.charge_at, p.triggered_at, p.gateway_response, p.channel, p.paid_at, p.provider_transaction_id, p.provider_access_code,
  p.provider_authorization_url, p.created_at, p.updated_at`;

/** The joined saved card, prefixed `a_` (all null when the payment has none). */
export const AUTHORIZATION_COLUMNS = `a.id AS a_id, a.developer_id AS a_developer_id, a.mode AS a_mode, a.code AS a_code, a.customer_id AS a_customer_id,
  a.email AS a_email, a.provider_authorization_code AS a_provider_authorization_code, a.provider_signature AS a_provider_signature,
  a.reusable AS a_reusable, a.brand AS a_brand, a.last4 AS a_last4, a.exp_month AS a_exp_month, a.exp_year AS a_exp_year,
  a.bank AS a_bank, a.channel AS a_channel, a.created_at AS a_created_at`;

export interface PaymentRow {
  id: string;
  developer_id: string;
  mode: Mode;
  reference: string;
  status: PaymentStatus;
  customer_id: string;
  customer_reference: string;
  email: string;
  amount: string;
  currency: Currency;
  platform_fee: string | null;
  provider_fee: string | null;
  net_amount: string | null;
  amount_refunded: string;
  callback_url: string | null;
  metadata: Record<string, unknown>;
  splits: StoredSplit[];
  idempotency_key: string | null;
  idempotency_scope: string | null;
  request_hash: string | null;
  authorization_id: string | null;
  charge_at: Date | null;
  triggered_at: Date | null;
  gateway_response: string | null;
  channel: string | null;
  paid_at: Date | null;
  provider_transaction_id: string | null;
  provider_access_code: string | null;
  provider_authorization_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AuthorizationRow {
  id: string;
  developer_id: string;
  mode: Mode;
  code: string;
  customer_id: string;
  email: string;
  provider_authorization_code: string;
  provider_signature: string | null;
  reusable: boolean;
  brand: string | null;
  last4: string | null;
  exp_month: string | null;
  exp_year: string | null;
  bank: string | null;
  channel: string | null;
  created_at: Date;
}

type JoinedRow = PaymentRow & { [K in keyof AuthorizationRow as `a_${K}`]: AuthorizationRow[K] | null };

/** numeric(20,2) text → Amount; PostgreSQL always writes the two decimals, so no decimal parsing is needed. */
export function amountOf(value: string): Amount {
  return /^-?\d+\.\d\d$/.test(value) ? Amount.fromMinor(value.replace('.', '')) : Amount.parse(value);
}

export function nullableAmount(value: string | null): Amount | null {
  return value === null ? null : amountOf(value);
}

export function paymentFromRow(r: PaymentRow): PaymentEntity {
  return Object.assign(new PaymentEntity(), {
    id: r.id,
    developerId: r.developer_id,
    mode: r.mode,
    reference: r.reference,
    status: r.status,
    customerId: r.customer_id,
    customerReference: r.customer_reference,
    email: r.email,
    amount: amountOf(r.amount),
    currency: r.currency,
    platformFee: nullableAmount(r.platform_fee),
    providerFee: nullableAmount(r.provider_fee),
    netAmount: nullableAmount(r.net_amount),
    amountRefunded: amountOf(r.amount_refunded),
    callbackUrl: r.callback_url,
    metadata: r.metadata,
    splits: r.splits,
    idempotencyKey: r.idempotency_key,
    idempotencyScope: r.idempotency_scope,
    requestHash: r.request_hash,
    authorizationId: r.authorization_id,
    chargeAt: r.charge_at,
    triggeredAt: r.triggered_at,
    gatewayResponse: r.gateway_response,
    channel: r.channel,
    paidAt: r.paid_at,
    providerTransactionId: r.provider_transaction_id,
    providerAccessCode: r.provider_access_code,
    providerAuthorizationUrl: r.provider_authorization_url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}

export function authorizationFromRow(r: AuthorizationRow): PaymentAuthorizationEntity {
  return Object.assign(new PaymentAuthorizationEntity(), {
    id: r.id,
    developerId: r.developer_id,
    mode: r.mode,
    code: r.code,
    customerId: r.customer_id,
    email: r.email,
    providerAuthorizationCode: r.provider_authorization_code,
    providerSignature: r.provider_signature,
    reusable: r.reusable,
    brand: r.brand,
    last4: r.last4,
    expMonth: r.exp_month,
    expYear: r.exp_year,
    bank: r.bank,
    channel: r.channel,
    createdAt: r.created_at,
  });
}

export function viewFromRow(row: PaymentRow): PaymentView {
  const r = row as JoinedRow;
  const authorization =
    r.a_id === null
      ? null
      : authorizationFromRow({
          id: r.a_id,
          developer_id: r.a_developer_id as string,
          mode: r.a_mode as Mode,
          code: r.a_code as string,
          customer_id: r.a_customer_id as string,
          email: r.a_email as string,
          provider_authorization_code: r.a_provider_authorization_code as string,
          provider_signature: r.a_provider_signature,
          reusable: r.a_reusable as boolean,
          brand: r.a_brand,
          last4: r.a_last4,
          exp_month: r.a_exp_month,
          exp_year: r.a_exp_year,
          bank: r.a_bank,
          channel: r.a_channel,
          created_at: r.a_created_at as Date,
        });
  return { payment: paymentFromRow(row), authorization };
}
