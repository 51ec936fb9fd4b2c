/**
 * The SQL a successful verify runs, as the gateway runs it (libs/domain/payments
 * payments.repository.ts, libs/domain/ledger ledger.repository.ts, libs/domain/webhooks
 * events.repository.ts and webhook-deliveries.repository.ts), written once with named parameters
 * (`:name`) so the bare Fastify + pg server (converted to $1…) and pgbench (-M extended,
 * variables from \gset) run the very same statements. Keep it in step with those files when they
 * change.
 */

const PAYMENT_COLUMNS = `p.id, p.developer_id, p.mode, p.reference, p.status, p.customer_id, p.customer_reference, p.email, p.amount, p.currency,
  p.platform_fee, p.provider_fee, p.net_amount, p.amount_refunded, p.callback_url, p.metadata, p.splits, p.idempotency_key,
  p.authorization_id, p.charge_at, p.gateway_response, p.channel, p.paid_at, p.provider_transaction_id, p.provider_access_code,
  p.provider_authorization_url, p.created_at, p.updated_at`;
const AUTHORIZATION_COLUMNS = `a.id AS a_id, a.developer_id AS a_developer_id, a.mode AS a_mode, a.code AS a_code, a.customer_id AS a_customer_id,
  a.email AS a_email, a.provider_authorization_code AS a_provider_authorization_code, a.provider_signature AS a_provider_signature,
  a.reusable AS a_reusable, a.brand AS a_brand, a.last4 AS a_last4, a.exp_month AS a_exp_month, a.exp_year AS a_exp_year,
  a.bank AS a_bank, a.channel AS a_channel, a.created_at AS a_created_at`;

/** GET /payments/{reference}: the payment and its saved card, one round trip. */
export const GET_PAYMENT_SQL = `SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS}
  FROM payments p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id
  WHERE p.reference = :reference AND p.developer_id = :developer_id::uuid AND p.mode = :mode`;

/** Verify's first read: the same, with the developer's platform fee override (if any). */
export const VERIFY_READ_SQL = `SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS},
    (SELECT f.amount FROM developer_fee_overrides f WHERE f.developer_id = p.developer_id AND f.currency = p.currency) AS fee_override
  FROM payments p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id
  WHERE p.reference = :reference AND p.developer_id = :developer_id::uuid AND p.mode = :mode`;

/**
 * The statements of the verify transaction, in order, between BEGIN and COMMIT: what pgbench runs
 * (pgbench/verify-script.ts). The gateway and the bare server now settle a success in ONE statement
 * (libs/domain/payments payment-success.statement.ts) with these steps as its CTEs, plus the
 * analytics totals; pgbench's script has not been moved onto it yet.
 */
export const VERIFY_TRANSACTION_SQL = {
  /** The saved card, created on first sight (one round trip: insert, or read the existing one). */
  saveAuthorization: `WITH inserted AS (
      INSERT INTO payment_authorizations (developer_id, mode, code, customer_id, email, provider_authorization_code, provider_signature,
        reusable, brand, last4, exp_month, exp_year, bank, channel, created_at)
      VALUES (:developer_id::uuid, :mode, :authorization_code, :customer_id::uuid, :email, :provider_authorization_code, :provider_signature,
        :reusable::boolean, :brand, :last4, :exp_month, :exp_year, :bank, :channel, :now::timestamptz)
      ON CONFLICT (developer_id, mode, provider_authorization_code) DO NOTHING
      RETURNING *)
    SELECT * FROM inserted
    UNION ALL
    SELECT * FROM payment_authorizations
      WHERE developer_id = :developer_id::uuid AND mode = :mode AND provider_authorization_code = :provider_authorization_code
    LIMIT 1`,
  /** The conditional status move; the new row comes back, so nothing is read again. */
  succeed: `UPDATE payments p SET status = 'success', platform_fee = :platform_fee::numeric, provider_fee = :provider_fee::numeric,
      net_amount = :net_amount::numeric, splits = :splits::jsonb, authorization_id = :authorization_id::uuid, gateway_response = :gateway_response,
      channel = :channel, paid_at = :paid_at::timestamptz, provider_transaction_id = :provider_transaction_id, updated_at = :now::timestamptz
    WHERE p.id = :payment_id::uuid AND p.status IN ('pending', 'failed', 'abandoned', 'scheduled')
    RETURNING ${PAYMENT_COLUMNS}`,
  /**
   * The ledger posting in one round trip: wallet, posting, the credit on a balance slot no other
   * transaction holds (SKIP LOCKED; only when all are held, it waits for the start slot), and the
   * entries, hashed onto that slot's chain (request_id: NULL, as outside an API request scope).
   */
  postCredit: `WITH wallet AS (
      SELECT id FROM wallets WHERE developer_id = :developer_id::uuid AND mode = :mode::text AND currency = :currency::text
    ), posting AS (
      INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind, created_at, request_id)
      SELECT :developer_id::uuid, :mode::text, :currency::text, :source_type::text, :source_id::text, :kind::text, :now::timestamptz, NULL::text FROM wallet
      ON CONFLICT ON CONSTRAINT ledger_postings_once_per_source DO NOTHING RETURNING id
    ), held AS (
      SELECT coalesce(
        (SELECT s FROM wallet_balance_slots s
          WHERE s.wallet_id = (SELECT id FROM wallet) AND EXISTS (SELECT 1 FROM posting)
          ORDER BY (s.slot - :start_slot::int + :slot_count::int) % :slot_count::int LIMIT 1 FOR UPDATE SKIP LOCKED),
        (SELECT s FROM wallet_balance_slots s
          WHERE s.wallet_id = (SELECT id FROM wallet) AND EXISTS (SELECT 1 FROM posting) AND s.slot = :start_slot::int FOR UPDATE)
      ) AS s
    ), head AS (
      SELECT (s).slot::int AS slot, (s).last_entry_hash FROM held WHERE (s).slot IS NOT NULL
    ), chain AS MATERIALIZED (
      SELECT c.* FROM posting, head, ledger_chain_lines(head.last_entry_hash, posting.id, :developer_id::uuid, :mode::text, :currency::text, head.slot,
        :source_type::text, :source_id::text, :kind::text, :reference::text, :now::timestamptz, :accounts::text[], :buckets::text[], :entry_types::text[], :amounts::numeric[], :descriptions::text[]) AS c
    ), chain_end AS (
      SELECT hash FROM chain ORDER BY n DESC LIMIT 1
    ), entries AS (
      INSERT INTO ledger_entries (id, posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, prev_hash, hash)
      SELECT c.id, posting.id, :developer_id::uuid, :mode::text, :currency::text, c.account, c.bucket, c.entry_type, c.amount, :reference::text, c.description, :now::timestamptz, head.slot, c.prev_hash, c.hash
      FROM chain c, posting, head
      ORDER BY c.n
      RETURNING 1
    ), credited AS (
      UPDATE wallet_balance_slots s
      SET available = s.available + :available::numeric, pending = s.pending + :pending::numeric, reserved = s.reserved + :reserved::numeric,
          last_entry_hash = (SELECT hash FROM chain_end)
      FROM wallet, head WHERE s.wallet_id = wallet.id AND s.slot = head.slot RETURNING s.slot
    )
    SELECT (SELECT id FROM wallet) AS wallet_id, (SELECT id FROM posting) AS posting_id, (SELECT slot FROM credited) AS slot`,
  /** The payment.success event (the outbox) and its fan-out to the developer's subscribed webhook endpoints (none in the benchmark), one statement. */
  emitEvent: `WITH event AS (
      INSERT INTO events (id, developer_id, mode, name, data, created_at, request_id)
      VALUES (:event_id, :developer_id::uuid, :mode, :event_name, :event_data::jsonb, :now::timestamptz, NULL)
    ), created AS (
      INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
      SELECT e.developer_id, e.mode, e.id, :event_id, 'pending', 0, :now::timestamptz, :now::timestamptz
        FROM webhook_endpoints e
       WHERE e.developer_id = :developer_id::uuid AND e.mode = :mode AND e.deleted_at IS NULL AND e.status = 'enabled' AND :event_name = ANY (e.events)
      RETURNING id)
    SELECT graphile_worker.add_job('webhook_delivery', json_build_object('delivery_id', created.id::text), run_at => :now::timestamptz,
      job_key => 'webhook_delivery:' || created.id::text, max_attempts => 5)
      FROM created`,
} as const;

/** `:name` → `$n` (the same name, the same n), leaving `::type` casts alone. */
export function positional(sql: string): { text: string; names: string[] } {
  const names: string[] = [];
  const text = sql.replace(/(?<![:\w]):([a-z][a-z0-9_]*)/g, (_, name: string) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}
