import type { PaymentStatus } from '@gateway/contracts';
import { analyticsTotalsCte } from '@gateway/domain/analytics';
import { ledgerCreditCtes } from '@gateway/domain/ledger';
import { eventWithFanOutCtes } from '@gateway/domain/webhooks';
import type { EntityManager } from 'typeorm';
import { parameterCount, preparedStatement, runStatement, shiftParameters, statusLiterals, targetOf } from '@gateway/platform';
import { AUTHORIZATION_RESPONSE_JSON, type PaymentView } from './payment.mapper';
import { PAYMENT_TRANSITIONS } from './payment-status';
import { AUTHORIZATION_COLUMNS, PAYMENT_COLUMNS, type PaymentRow, viewFromRow } from './payment-rows';
import { type NewAuthorization, newAuthorizationValues, type PaymentSuccessChanges, successChangeValues } from './payments.repository';

// A payment's success in ONE statement, so it needs no BEGIN and no COMMIT round trip (PostgreSQL
// commits a statement whole or not at all): the saved card, the status move and, only when the
// move happened, the ledger credit, the `payment.success` event with its webhook fan-out and the
// analytics totals, each part's SQL written by the module that owns its tables. The move is made
// only from pending or scheduled, and only when the wallet exists and the card was found: when
// nothing moved, the caller learns why from the row the statement returns.
//
// The payment's own part; its parameters ($1–$28, then shifted after the others'):
//   $1 payment id  $2 statuses it may leave  $3 a card to save?  $4 developer  $5 mode
//   $6–$18 the card (code, customer, e-mail, provider's code and signature, reusable, brand, last4,
//   exp month and year, bank, channel, created_at)  $19–$28 the changes (fees, net, splits, the
//   payment's current card, gateway response, channel, paid_at, provider's transaction id,
//   updated_at).
const PAYMENT_CTES = `inserted_card AS (
    INSERT INTO payment_authorizations (developer_id, mode, code, customer_id, email, provider_authorization_code, provider_signature,
      reusable, brand, last4, exp_month, exp_year, bank, channel, created_at)
    SELECT $4::uuid, $5::text, $6::text, $7::uuid, $8::text, $9::text, $10::text, $11::boolean, $12::text, $13::text, $14::text, $15::text, $16::text, $17::text,
      $18::timestamptz
    WHERE $3::boolean
    ON CONFLICT (developer_id, mode, provider_authorization_code) DO NOTHING
    RETURNING *
  ), card AS (
    SELECT * FROM inserted_card
    UNION ALL
    SELECT * FROM payment_authorizations WHERE $3::boolean AND developer_id = $4::uuid AND mode = $5::text AND provider_authorization_code = $9::text
    UNION ALL
    SELECT * FROM payment_authorizations WHERE NOT $3::boolean AND id = $23::uuid AND developer_id = $4::uuid AND mode = $5::text
    LIMIT 1
  ), settled AS (
    UPDATE payments p SET status = ${statusLiterals([targetOf(PAYMENT_TRANSITIONS, 'succeed')])}, platform_fee = $19::numeric, provider_fee = $20::numeric,
      net_amount = $21::numeric, splits = $22::jsonb, authorization_id = coalesce((SELECT id FROM card), $23::uuid), gateway_response = $24::text,
      channel = $25::text, paid_at = $26::timestamptz, provider_transaction_id = $27::text, updated_at = $28::timestamptz
    WHERE p.id = $1::uuid AND p.status = ANY ($2::text[]) AND EXISTS (SELECT 1 FROM ledger_wallet) AND (NOT $3::boolean OR EXISTS (SELECT 1 FROM card))
    RETURNING ${PAYMENT_COLUMNS}
  )`;

const ledger = ledgerCreditCtes('settled');
// The event's data is the payment as the mapper renders it after the move, but for its card: the
// card row is known only here (a card seen before keeps its code), so the statement sets it.
const EVENT_CTES = eventWithFanOutCtes('settled', (data) => `jsonb_set(${data}, '{authorization}', coalesce((SELECT ${AUTHORIZATION_RESPONSE_JSON} FROM card a), 'null'::jsonb))`);
const ANALYTICS_CTE = analyticsTotalsCte('settled');

const LEDGER_PARAMETERS = parameterCount(ledger.wallet, ledger.credit);
const EVENT_PARAMETERS = parameterCount(EVENT_CTES);
const ANALYTICS_PARAMETERS = parameterCount(ANALYTICS_CTE);
const EVENT_AT = LEDGER_PARAMETERS;
const ANALYTICS_AT = EVENT_AT + EVENT_PARAMETERS;
const PAYMENT_AT = ANALYTICS_AT + ANALYTICS_PARAMETERS;
const PAYMENT_PARAMETERS = parameterCount(PAYMENT_CTES);

// The row always comes back: the payment as settled (all null when nothing moved), its card, and
// what tells the caller why nothing moved — no wallet, the card not seen (saved by a concurrent
// transaction after this statement's snapshot), or the status the snapshot shows. Exported for
// the bare baseline (tools/bench/baseline), which runs the very same statement.
export const SUCCEED_IN_ONE_STATEMENT = preparedStatement(
  'payments.succeed-in-one-statement',
  `WITH ${ledger.wallet}, ${shiftParameters(PAYMENT_CTES, PAYMENT_AT)}, ${ledger.credit},
    ${shiftParameters(EVENT_CTES, EVENT_AT)}, ${shiftParameters(ANALYTICS_CTE, ANALYTICS_AT)}
  SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS},
    EXISTS (SELECT 1 FROM ledger_wallet) AS wallet_exists, (SELECT count(*) FROM event_fan_out) AS fan_out,
    (SELECT status FROM payments WHERE id = $${PAYMENT_AT + 1}::uuid) AS status_seen
  FROM (VALUES (1)) AS one (n) LEFT JOIN settled p ON TRUE LEFT JOIN card a ON TRUE`,
);

/** What the payment's own part needs. */
export interface OneStatementSuccess {
  paymentId: string;
  developerId: string;
  mode: string;
  /** The statuses the payment may leave here: pending and scheduled (a late success needs the transaction path). */
  from: PaymentStatus[];
  /** The card the provider charged, saved on first sight; null: the payment keeps its card (changes.authorizationId). */
  card: NewAuthorization | null;
  changes: PaymentSuccessChanges;
}

/** Why nothing moved, when nothing did. */
export type OneStatementOutcome =
  | { settled: PaymentView; fanOut: string }
  | { settled: null; walletExists: boolean; cardSeen: boolean; statusSeen: PaymentStatus | null };

/**
 * Runs the success statement outside any transaction (on the pool) with each part's parameters:
 * the ledger's (LedgerService.creditInStatement), the event's (EventsService.emitInStatement, its
 * data the payment as the mapper renders it after the move, but its card, which the statement sets) and
 * the analytics totals' (AnalyticsService.paymentOutcomesInStatement).
 */
export async function succeedInOneStatement(
  manager: EntityManager,
  success: OneStatementSuccess,
  parts: { ledger: unknown[]; event: unknown[]; analytics: unknown[] },
): Promise<OneStatementOutcome> {
  const { card } = success;
  // No card to save: its columns are null, but the tenant's, which find the payment's current card.
  const cardValues = card ? newAuthorizationValues(card) : [success.developerId, success.mode, ...Array<null>(13).fill(null)];
  const own = [
    success.paymentId,
    success.from,
    card !== null,
    ...cardValues,
    ...successChangeValues(success.changes),
  ];
  expectCount('ledger', parts.ledger, LEDGER_PARAMETERS);
  expectCount('event', parts.event, EVENT_PARAMETERS);
  expectCount('analytics', parts.analytics, ANALYTICS_PARAMETERS);
  expectCount('payment', own, PAYMENT_PARAMETERS);
  const { rows } = await runStatement<PaymentRow & { a_id: string | null; wallet_exists: boolean; fan_out: string; status_seen: PaymentStatus | null }>(manager, SUCCEED_IN_ONE_STATEMENT, [
    ...parts.ledger,
    ...parts.event,
    ...parts.analytics,
    ...own,
  ]);
  const row = rows[0];
  if (row.id !== null) return { settled: viewFromRow(row), fanOut: row.fan_out };
  return { settled: null, walletExists: row.wallet_exists, cardSeen: row.a_id !== null, statusSeen: row.status_seen };
}

function expectCount(part: string, values: unknown[], count: number): void {
  if (values.length !== count) throw new Error(`the ${part} part of the success statement takes ${count} parameters, not ${values.length}`);
}
