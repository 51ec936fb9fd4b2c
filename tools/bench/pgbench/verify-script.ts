import { VERIFY_TRANSACTION_SQL } from '../baseline/verify-sql';

/**
 * A pgbench script (run with `-M prepared`, so `:name` becomes a bound parameter of a named statement,
 * as the gateway sends its hot statements) doing one successful verify per transaction: the read of the next prepared payment
 * (`:prefix` + nextval(`:sequence`), which also computes the values the gateway computes in
 * JavaScript), then BEGIN, the verify transaction's statements exactly as in
 * baseline/verify-sql.ts, COMMIT.
 *
 *   pgbench -n -M prepared -c 32 -j 2 -T 10 -D prefix=PGS_ -D sequence=bench_pgbench_spread -f verify.sql <database>
 */
export function pgbenchVerifyScript(): string {
  const read = `SELECT p.id AS payment_id, p.id AS source_id, p.developer_id, p.mode, p.customer_id, p.email, p.currency, p.reference,
    'payment' AS source_type, 'success' AS kind, now() AS now, now() AS paid_at,
    'AUTH_' || md5(random()::text) AS authorization_code, 'AUTH_' || md5(random()::text) AS provider_authorization_code,
    'SIG_' || md5(random()::text) AS provider_signature, 'true' AS reusable, 'visa' AS brand, '4081' AS last4, '12' AS exp_month,
    '2030' AS exp_year, 'TEST BANK' AS bank, 'card' AS channel, 'Approved' AS gateway_response, (random() * 1e9)::bigint::text AS provider_transaction_id,
    '[]' AS splits, f.platform_fee, f.provider_fee, p.amount - f.platform_fee - f.provider_fee AS net_amount,
    p.amount - f.platform_fee - f.provider_fee AS available, '0' AS pending, '0' AS reserved, floor(random() * 16)::int AS start_slot, 16 AS slot_count,
    '{provider_clearing,wallet,wallet,platform_fees,wallet,provider_fees}' AS accounts, '{NULL,available,available,NULL,available,NULL}' AS buckets,
    '{credit,credit,fee,fee,fee,fee}' AS entry_types,
    ARRAY[-p.amount, p.amount, -f.platform_fee, f.platform_fee, -f.provider_fee, f.provider_fee]::text AS amounts,
    '{"Payment received","Payment received","Platform fee","Platform fee","Provider fee","Provider fee"}' AS descriptions,
    'evt_' || substr(md5(random()::text), 1, 24) AS event_id, 'payment.success' AS event_name,
    json_build_object('reference', p.reference, 'status', 'success', 'amount', p.amount, 'currency', p.currency, 'net_amount', p.amount - f.platform_fee - f.provider_fee,
      'fees', json_build_object('platform', f.platform_fee, 'provider', f.provider_fee), 'amount_refunded', p.amount_refunded, 'email', p.email,
      'customer_reference', p.customer_reference, 'authorization_url', NULL, 'callback_url', p.callback_url, 'metadata', p.metadata, 'splits', p.splits,
      'authorization', json_build_object('authorization_code', 'AUTH_x', 'reusable', true, 'brand', 'visa', 'last4', '4081', 'exp_month', '12', 'exp_year', '2030', 'bank', 'TEST BANK'),
      'gateway_response', 'Approved', 'channel', 'card', 'charge_at', NULL, 'paid_at', now(), 'created_at', p.created_at)::text AS event_data
  FROM payments p
  CROSS JOIN LATERAL (SELECT coalesce((SELECT amount FROM developer_fee_overrides o WHERE o.developer_id = p.developer_id AND o.currency = p.currency), 10.00) AS platform_fee,
    least(round(p.amount * 0.015, 2) + 100.00, 2000.00) AS provider_fee) f
  WHERE p.reference = (SELECT :prefix || nextval(:sequence::regclass))`;
  const t = VERIFY_TRANSACTION_SQL;
  return [
    `${read} \\gset`,
    'BEGIN;',
    // The upsert returns the saved card's columns (id, code, …): \gset makes `:id` its id.
    `${t.saveAuthorization} \\gset`,
    `${t.succeed.replace(':authorization_id', ':id')};`,
    `${t.postCredit};`,
    `${t.emitEvent};`,
    'COMMIT;',
    '',
  ].join('\n');
}
