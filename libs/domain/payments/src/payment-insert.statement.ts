import { customerByEmailCtes } from '@gateway/domain/customers';
import { tenantTimeSql } from '@gateway/domain/test-clocks';
import { parameterCount, preparedStatement, runStatement, shiftParameters } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { PaymentEntity } from './payment.entity';
import { PAYMENT_COLUMNS, paymentFromRow, type PaymentRow } from './payment-rows';
import { type NewPayment, newPaymentValues } from './payments.repository';

// A new payment and its customer (found by e-mail, or created with its `customer.created` event) in
// ONE statement, so initialize needs no BEGIN and no COMMIT round trip. The payment's part, after
// the customer's parameters: newPaymentValues ($1 developer  $2 mode  $3 reference  $4 status
// $5 e-mail  $6 amount  $7 currency  $8 callback_url  $9 metadata  $10 splits  $11 idempotency key
// $12 its scope  $13 request hash  $14 saved card  $15 charge_at  $16 created_at). $16 is the real
// time: the statement moves it to the tenant's (a test clock may run ahead), so initialize reads
// no clock before it.
const CREATED_AT = tenantTimeSql('$1::uuid', '$2::text', '$16::timestamptz');
const PAYMENT_CTE = `new_payment AS (
    INSERT INTO payments AS p (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, amount_refunded,
        callback_url, metadata, splits, idempotency_key, idempotency_scope, request_hash, authorization_id, charge_at, created_at, updated_at)
    SELECT $1::uuid, $2::text, $3::text, $4::text, customer.id, customer.reference, $5::text, $6::numeric, $7::text, 0, $8::text, $9::jsonb, $10::jsonb,
      $11::text, $12::text, $13::text, $14::uuid, $15::timestamptz, created.at, created.at
    FROM customer, (SELECT ${CREATED_AT} AS at) AS created
    ON CONFLICT DO NOTHING
    RETURNING ${PAYMENT_COLUMNS}
  )`;
const CUSTOMER_PARAMETERS = parameterCount(customerByEmailCtes);

// The row always comes back: the payment as stored (all null when nothing was inserted) and
// whether the customer was seen (not seen: inserted concurrently after the statement's snapshot).
// Exported for the bare baseline (tools/bench/baseline), which runs the very same statement.
export const INSERT_WITH_CUSTOMER = preparedStatement(
  'payments.insert-with-customer',
  `WITH ${customerByEmailCtes}, ${shiftParameters(PAYMENT_CTE, CUSTOMER_PARAMETERS)}
  SELECT ${PAYMENT_COLUMNS}, EXISTS (SELECT 1 FROM customer) AS customer_seen, (SELECT count(*) FROM event_fan_out) AS fan_out
  FROM (VALUES (1)) AS one (n) LEFT JOIN new_payment p ON TRUE`,
);

/** The payment as stored; null when its idempotency key (or reference) was taken, or the customer not seen (`customerSeen`). */
export async function insertWithCustomer(
  manager: EntityManager,
  customer: unknown[],
  row: Omit<NewPayment, 'customerId' | 'customerReference'>,
): Promise<{ payment: PaymentEntity | null; customerSeen: boolean; fanOut: string }> {
  if (customer.length !== CUSTOMER_PARAMETERS) throw new Error(`the customer part takes ${CUSTOMER_PARAMETERS} parameters, not ${customer.length}`);
  const { rows } = await runStatement<PaymentRow & { customer_seen: boolean; fan_out: string }>(manager, INSERT_WITH_CUSTOMER, [...customer, ...newPaymentValues(row)]);
  const found = rows[0];
  return { payment: found.id === null ? null : paymentFromRow(found), customerSeen: found.customer_seen, fanOut: found.fan_out };
}
