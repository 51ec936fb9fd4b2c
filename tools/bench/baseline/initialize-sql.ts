/**
 * The SQL POST /payments/initialize runs, as the gateway runs it (libs/domain/test-clocks
 * test-clocks.repository.ts, libs/domain/customers customers.repository.ts, libs/domain/payments
 * payments.repository.ts; the statements TypeORM generates there, with its column lists), with
 * named parameters (`:name`) for the bare server (baseline/verify-sql.ts's `positional`). The
 * provider's initialize call sits between COMMIT and recordCheckout; the bare server makes none.
 * Keep it in step with those files when they change.
 */

const CUSTOMER_COLUMNS = `id, developer_id, mode, reference, email, name, phone, metadata, created_at`;

const PAYMENT_COLUMNS = `id, developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency,
  platform_fee, provider_fee, net_amount, amount_refunded, callback_url, metadata, splits, idempotency_key, idempotency_scope,
  request_hash, authorization_id, charge_at, triggered_at, gateway_response, channel, paid_at, provider_transaction_id,
  provider_access_code, provider_authorization_url, created_at, updated_at`;

export const INITIALIZE_SQL = {
  /** The tenant's test clock (test mode): the payment's times count from it. Before the transaction. */
  testClock: `SELECT developer_id, mode, offset_seconds, updated_at FROM test_clocks
    WHERE developer_id = :developer_id::uuid AND mode = :mode LIMIT 1`,
  /** In the transaction: the customer by e-mail, created on first sight … */
  insertCustomer: `INSERT INTO customers (id, developer_id, mode, reference, email, name, phone, metadata, created_at)
    VALUES (DEFAULT, :developer_id::uuid, :mode, :customer_reference, :email, NULL, NULL, '{}'::jsonb, :now::timestamptz)
    ON CONFLICT DO NOTHING RETURNING id`,
  /** … read back when created (then customer.created goes to the outbox: verify-sql's insertEvent and fanOut) … */
  customerById: `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = :customer_id::uuid LIMIT 1`,
  /** … or the existing one. */
  customerByEmail: `SELECT ${CUSTOMER_COLUMNS} FROM customers
    WHERE developer_id = :developer_id::uuid AND mode = :mode AND lower(email) = lower(:email)`,
  /** The payment, pending, and the row read back. */
  insertPayment: `INSERT INTO payments (id, developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency,
      amount_refunded, callback_url, metadata, splits, idempotency_key, idempotency_scope, request_hash, authorization_id, charge_at,
      created_at, updated_at)
    VALUES (DEFAULT, :developer_id::uuid, :mode, :reference, 'pending', :customer_id::uuid, :customer_reference, :email, :amount::numeric, :currency,
      0, :callback_url, '{}'::jsonb, '[]'::jsonb, NULL, NULL, :request_hash, NULL, NULL, :now::timestamptz, :now::timestamptz)
    ON CONFLICT DO NOTHING RETURNING id`,
  paymentById: `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = :payment_id::uuid LIMIT 1`,
  /** After COMMIT and the provider's answer: the checkout's access code and URL. */
  recordCheckout: `UPDATE payments SET provider_access_code = :access_code, provider_authorization_url = :provider_url, updated_at = :now::timestamptz
    WHERE id = :payment_id::uuid`,
  // Then the payment is read as GET /payments/{reference} reads it: verify-sql's GET_PAYMENT_SQL.
} as const;
