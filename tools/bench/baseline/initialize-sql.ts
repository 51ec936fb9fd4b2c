/**
 * The SQL POST /payments/initialize runs after its one statement that writes the customer and the
 * payment (payment-insert.statement.ts, which the bare server imports, and which reads the test
 * clock itself: a plain checkout makes no round trip for it), as the gateway runs it
 * (libs/domain/payments payments.repository.ts), with named parameters (`:name`) for the bare
 * server (baseline/verify-sql.ts's `positional`). The provider's initialize call sits between
 * that statement and recordCheckout; the bare server makes none. Keep it in step with those files
 * when they change.
 */

const PAYMENT_COLUMNS = `p.id, p.developer_id, p.mode, p.reference, p.status, p.customer_id, p.customer_reference, p.email, p.amount, p.currency,
  p.platform_fee, p.provider_fee, p.net_amount, p.amount_refunded, p.callback_url, p.metadata, p.splits, p.idempotency_key, p.idempotency_scope,
  p.request_hash, p.authorization_id, p.charge_at, p.triggered_at, p.gateway_response, p.channel, p.paid_at, p.provider_transaction_id,
  p.provider_access_code, p.provider_authorization_url, p.created_at, p.updated_at`;

const AUTHORIZATION_COLUMNS = `a.id AS a_id, a.code AS a_code, a.reusable AS a_reusable, a.brand AS a_brand, a.last4 AS a_last4,
  a.exp_month AS a_exp_month, a.exp_year AS a_exp_year, a.bank AS a_bank`;

export const INITIALIZE_SQL = {
  /** After the insert and the provider's answer: the checkout's access code and URL, and the payment as GET shows it. */
  recordCheckout: `WITH p AS (
      UPDATE payments SET provider_access_code = :access_code, provider_authorization_url = :provider_url, updated_at = :now::timestamptz
      WHERE id = :payment_id::uuid RETURNING *)
    SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS} FROM p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id`,
} as const;
