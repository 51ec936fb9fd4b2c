import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode, PaymentStatus } from '@gateway/contracts';
import {
  Amount,
  type Currency,
  type DeveloperContext,
  fromStatesOf,
  newestFirst,
  type Page,
  preparedStatement,
  runStatement,
  statusLiterals,
  targetOf,
} from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { PaymentAuthorizationEntity } from './payment-authorization.entity';
import type { PaymentView } from './payment.mapper';
import type { DailyPaymentVolume, PaidPeriod, PaymentPeriod, PaymentSummary, TopCustomer } from './payment-statistics';
import { PaymentEntity, type StoredSplit } from './payment.entity';
import { PAYMENT_TRANSITIONS } from './payment-status';
import {
  AUTHORIZATION_COLUMNS,
  authorizationFromRow,
  type AuthorizationRow,
  nullableAmount,
  PAYMENT_COLUMNS,
  paymentFromRow,
  type PaymentRow,
  viewFromRow,
} from './payment-rows';

/** What a successful provider transaction writes on the payment. */
export interface PaymentSuccessChanges {
  platformFee: Amount;
  providerFee: Amount;
  netAmount: Amount;
  splits: Array<{ subaccount: string; share: string; amount: string }>;
  authorizationId: string | null;
  gatewayResponse: string | null;
  channel: string | null;
  paidAt: Date;
  providerTransactionId: string | null;
  updatedAt: Date;
}

/**
 * The predicate of the index payments_abandonable_by_age (migration KeepCheckoutLinkUpdatesHot):
 * pending payments, and declined ones made without a saved card. A charge of a saved card, a
 * scheduled charge and a capture carry their card from their insert, and never had a checkout; a
 * checkout's card is known only once it is paid. It names no column the checkout link's update
 * writes (the provider's access code and URL, updated_at), so that update stays a HOT update:
 * naming the URL here made it write an entry into every index of the table
 * (payment-checkout-link.int-spec.ts; docs/benchmarks.md, "The checkout link's update").
 */
const ABANDONABLE_PAYMENT = `status = 'pending' OR (status = 'failed' AND authorization_id IS NULL)`;

/**
 * The payments the abandonment may take, PAYMENT_TRANSITIONS.abandon's sources written out:
 * pending ones, and declined ones while their checkout is still open (see checkoutIsOpen), since a
 * declined charge of a saved card is final. Read through the index of ABANDONABLE_PAYMENT, by age
 * (an integration test checks that the scan still uses it); the provider's URL is checked on the
 * rows it finds.
 */
export const UNPAID_PAYMENT = `(${ABANDONABLE_PAYMENT}) AND (status = 'pending' OR provider_authorization_url IS NOT NULL)`;

// Hot paths (initialize, GET by reference, verify, the checkout link, callbacks) run prepared
// statements on the driver: TypeORM's find, query builder and entity hydration cost more CPU per
// call than the query itself, and a named statement is parsed once per connection (see
// docs/benchmarks.md, "Payments").
const VIEW_FROM = `FROM payments p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id
  WHERE p.reference = $1 AND p.developer_id = $2 AND p.mode = $3`;
const FIND_VIEW = preparedStatement('payments.find-view', `SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS} ${VIEW_FROM}`);
const FOR_VERIFY = `SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS},
    (SELECT f.amount FROM developer_fee_overrides f WHERE f.developer_id = p.developer_id AND f.currency = p.currency) AS fee_override
  FROM payments p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id`;
const FIND_FOR_VERIFY = preparedStatement('payments.find-for-verify', `${FOR_VERIFY} WHERE p.reference = $1 AND p.developer_id = $2 AND p.mode = $3`);
/** A provider callback knows the reference and the mode, not the developer: the payment tells it. */
const FIND_FOR_CALLBACK = preparedStatement('payments.find-for-callback', `${FOR_VERIFY} WHERE p.reference = $1 AND p.mode = $2`);
const FIND_BY_IDEMPOTENCY_KEY = preparedStatement(
  'payments.find-by-idempotency-key',
  `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.developer_id = $1 AND p.mode = $2 AND p.idempotency_scope = $3 AND p.idempotency_key = $4`,
);
const FIND_BY_REFERENCE = preparedStatement('payments.find-by-reference', `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.reference = $1 AND p.mode = $2`);
const FIND_CHECKOUT = preparedStatement('payments.find-checkout', `SELECT status, provider_authorization_url FROM payments WHERE reference = $1`);
/** A new payment, returned as stored (no second read); nothing when its idempotency key (or reference) is taken. */
const INSERT = preparedStatement(
  'payments.insert',
  `INSERT INTO payments AS p (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, amount_refunded,
      callback_url, metadata, splits, idempotency_key, idempotency_scope, request_hash, authorization_id, charge_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $17, $18, $5, $6, $7, 0, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $15, $16, $16)
    ON CONFLICT DO NOTHING
    RETURNING ${PAYMENT_COLUMNS}`,
);
/** The provider's checkout on the payment, and the payment as GET shows it, in one round trip. */
const RECORD_CHECKOUT = preparedStatement(
  'payments.record-checkout',
  `WITH p AS (
    UPDATE payments SET provider_access_code = $2, provider_authorization_url = $3, updated_at = $4 WHERE id = $1 RETURNING *)
  SELECT ${PAYMENT_COLUMNS}, ${AUTHORIZATION_COLUMNS} FROM p LEFT JOIN payment_authorizations a ON a.id = p.authorization_id`,
);
const FAIL = preparedStatement(
  'payments.fail',
  `UPDATE payments SET status = ${statusLiterals([targetOf(PAYMENT_TRANSITIONS, 'fail')])}, gateway_response = $2, channel = $3, provider_transaction_id = $4, updated_at = $5
    WHERE id = $1 AND status = ANY ($6::text[])`,
);
const SUCCEED = preparedStatement(
  'payments.succeed',
  `UPDATE payments p SET status = ${statusLiterals([targetOf(PAYMENT_TRANSITIONS, 'succeed')])}, platform_fee = $2, provider_fee = $3, net_amount = $4, splits = $5::jsonb,
    authorization_id = $6, gateway_response = $7, channel = $8, paid_at = $9, provider_transaction_id = $10, updated_at = $11
  WHERE p.id = $1 AND p.status = ANY ($12::text[])
  RETURNING ${PAYMENT_COLUMNS}`,
);
const SAVE_AUTHORIZATION = preparedStatement(
  'payments.save-authorization',
  `WITH inserted AS (
    INSERT INTO payment_authorizations (developer_id, mode, code, customer_id, email, provider_authorization_code, provider_signature,
      reusable, brand, last4, exp_month, exp_year, bank, channel, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
    ON CONFLICT (developer_id, mode, provider_authorization_code) DO NOTHING
    RETURNING *)
  SELECT * FROM inserted
  UNION ALL
  SELECT * FROM payment_authorizations WHERE developer_id = $1 AND mode = $2 AND provider_authorization_code = $6
  LIMIT 1`,
);

/**
 * claimForReconciliation's one statement. $1 mode, $2 now, $3 the grace period, $4 the max age.
 * A due time is kept as the instant the grace period counts from (`reconcile_after`: due once it
 * is $3 in the past), as before the schedule had a table of its own. The most overdue of the two
 * candidates is claimed: the oldest payment never asked about, and the earliest schedule due.
 * `next_after` is where the next grace period counts from, so that the next ask comes when the
 * payment's age has doubled; null when that would be past the max age (this ask is the last).
 */
const CLAIM_FOR_RECONCILIATION = `
  WITH first AS (
    SELECT id, created_at AS due_after FROM payments
     WHERE mode = $1 AND status IN ('pending', 'abandoned') AND reconcile_after IS NULL
       AND created_at > $2::timestamptz - $4::interval AND created_at <= $2::timestamptz - $3::interval
     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
  ), again AS (
    SELECT payment_id AS id, reconcile_after AS due_after FROM payment_reconciliation_schedule
     WHERE mode = $1 AND reconcile_after <= $2::timestamptz - $3::interval
     ORDER BY reconcile_after LIMIT 1 FOR UPDATE SKIP LOCKED
  ), candidate AS (
    SELECT id, due_after, true AS is_first FROM first
    UNION ALL
    SELECT id, due_after, false FROM again
    ORDER BY due_after LIMIT 1
  ), chosen AS (
    SELECT c.id, c.is_first, p.developer_id, p.reference,
           p.status IN ('pending', 'abandoned') AND p.created_at > $2::timestamptz - $4::interval AS ask,
           CASE WHEN $2::timestamptz + GREATEST($3::interval, $2::timestamptz - p.created_at) > p.created_at + $4::interval THEN NULL
                ELSE $2::timestamptz + GREATEST(interval '0', $2::timestamptz - p.created_at - $3::interval) END AS next_after
      FROM candidate c JOIN payments p ON p.id = c.id
  ), stamped AS (
    UPDATE payments p SET reconcile_after = COALESCE(c.next_after, 'infinity') FROM chosen c WHERE c.is_first AND p.id = c.id
  ), scheduled AS (
    INSERT INTO payment_reconciliation_schedule (payment_id, mode, reconcile_after)
    SELECT id, $1, next_after FROM chosen WHERE is_first AND next_after IS NOT NULL
  ), moved AS (
    UPDATE payment_reconciliation_schedule s SET reconcile_after = c.next_after
      FROM chosen c WHERE NOT c.is_first AND s.payment_id = c.id AND c.ask AND c.next_after IS NOT NULL
  ), ended AS (
    DELETE FROM payment_reconciliation_schedule s
     USING chosen c WHERE NOT c.is_first AND s.payment_id = c.id AND NOT (c.ask AND c.next_after IS NOT NULL)
  )
  SELECT developer_id, reference, ask FROM chosen`;

/** A payment as verify reads it: with its card and the developer's platform fee override for its currency (null: none). */
export interface PaymentToVerify {
  view: PaymentView;
  feeOverride: Amount | null;
}

type PaymentToVerifyRow = PaymentRow & { fee_override: string | null };

function toVerify(row: PaymentToVerifyRow): PaymentToVerify {
  return { view: viewFromRow(row), feeOverride: nullableAmount(row.fee_override) };
}

/** A saved card as first seen (saveAuthorization). */
export type NewAuthorization = Omit<PaymentAuthorizationEntity, 'id'>;

/** A payment as created: pending (a checkout, a charge) or scheduled; nothing refunded, nothing paid yet. */
export interface NewPayment {
  developerId: string;
  mode: Mode;
  reference: string;
  status: 'pending' | 'scheduled';
  customerId: string;
  customerReference: string;
  email: string;
  amount: Amount;
  currency: Currency;
  callbackUrl: string | null;
  metadata: Record<string, unknown>;
  splits: StoredSplit[];
  idempotencyKey: string | null;
  idempotencyScope: string | null;
  requestHash: string | null;
  authorizationId: string | null;
  chargeAt: Date | null;
  createdAt: Date;
}

/** What a failed provider transaction writes on the payment. */
export interface PaymentFailureChanges {
  gatewayResponse: string | null;
  channel: string | null;
  providerTransactionId: string | null;
  updatedAt: Date;
}

/** The outcome a late success replaces, and when it was recorded (its updated_at). */
export interface PreviousOutcome {
  outcome: 'failed' | 'abandoned';
  at: Date;
}

/** A payment the abandonment scan moved: whose, and the status it left (pending, or failed on an open checkout) and since when. */
export interface AbandonedPayment {
  id: string;
  developerId: string;
  mode: Mode;
  currency: Currency;
  previousStatus: PaymentStatus;
  previousUpdatedAt: Date;
}

export interface PaymentListFilter {
  limit: number;
  cursor?: string;
  status?: PaymentStatus;
  currency?: Currency;
  customerId?: string;
  from?: Date;
  to?: Date;
}

/** What an export of payments covers: created in [from, to), optionally one status and one currency. */
export interface PaymentExportRange {
  from: Date;
  to: Date;
  status?: PaymentStatus;
  currency?: Currency;
}

/** Payment rows, always scoped by developer and mode. */
@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectRepository(PaymentEntity) private readonly payments: Repository<PaymentEntity>,
    @InjectRepository(PaymentAuthorizationEntity) private readonly authorizations: Repository<PaymentAuthorizationEntity>,
  ) {}

  get manager(): EntityManager {
    return this.payments.manager;
  }

  /** Inserts unless the idempotency key was used already in its scope; null when it was. */
  async insert(manager: EntityManager, row: NewPayment): Promise<PaymentEntity | null> {
    const { rows } = await runStatement<PaymentRow>(manager, INSERT, [...newPaymentValues(row), row.customerId, row.customerReference]);
    return rows[0] ? paymentFromRow(rows[0]) : null;
  }

  /** The payment created under this key in this key space (entry point), for this developer and mode. */
  async findByIdempotencyKey(ctx: DeveloperContext, scope: string, key: string, manager: EntityManager = this.manager): Promise<PaymentEntity | null> {
    const { rows } = await runStatement<PaymentRow>(manager, FIND_BY_IDEMPOTENCY_KEY, [ctx.developerId, ctx.mode, scope, key]);
    return rows[0] ? paymentFromRow(rows[0]) : null;
  }

  /** The payment and its saved card, in one round trip. */
  async findView(ctx: DeveloperContext, reference: string, manager: EntityManager = this.manager): Promise<PaymentView | null> {
    const { rows } = await runStatement<PaymentRow>(manager, FIND_VIEW, [reference, ctx.developerId, ctx.mode]);
    return rows[0] ? viewFromRow(rows[0]) : null;
  }

  /** findView, with the developer's platform fee override for the payment's currency (null: none) in the same round trip. */
  async findForVerify(ctx: DeveloperContext, reference: string): Promise<PaymentToVerify | null> {
    const { rows } = await runStatement<PaymentToVerifyRow>(this.manager, FIND_FOR_VERIFY, [reference, ctx.developerId, ctx.mode]);
    return rows[0] ? toVerify(rows[0]) : null;
  }

  /** findForVerify for a provider callback, which knows no developer: any developer's payment of this mode. */
  async findForCallback(mode: Mode, reference: string): Promise<PaymentToVerify | null> {
    const { rows } = await runStatement<PaymentToVerifyRow>(this.manager, FIND_FOR_CALLBACK, [reference, mode]);
    return rows[0] ? toVerify(rows[0]) : null;
  }

  /**
   * The 'succeed' transition with its changes, returning the updated payment (null when another
   * request moved it first), so the caller needs no second read, and the outcome the payment
   * leaves: null from pending or scheduled (the usual case, one statement), else a late success
   * after a decline or an abandonment, with when that outcome was recorded (its updated_at, read
   * under the row lock so it is the one this move replaces).
   */
  async succeed(manager: EntityManager, id: string, changes: PaymentSuccessChanges): Promise<{ payment: PaymentEntity; previous: PreviousOutcome | null } | null> {
    const fresh = await this.succeedFrom(manager, id, changes, ['pending', 'scheduled']);
    if (fresh) return { payment: fresh, previous: null };
    const [current] = (await manager.query(`SELECT status, updated_at FROM payments WHERE id = $1 FOR UPDATE`, [id])) as Array<{ status: PaymentStatus; updated_at: Date }>;
    if (current?.status !== 'failed' && current?.status !== 'abandoned') return null;
    const late = await this.succeedFrom(manager, id, changes, [current.status]);
    return late && { payment: late, previous: { outcome: current.status, at: current.updated_at } };
  }

  private async succeedFrom(manager: EntityManager, id: string, changes: PaymentSuccessChanges, from: PaymentStatus[]): Promise<PaymentEntity | null> {
    const allowed = fromStatesOf(PAYMENT_TRANSITIONS, 'succeed') as readonly PaymentStatus[];
    const { rows } = await runStatement<PaymentRow>(manager, SUCCEED, [id, ...successChangeValues(changes), from.filter((status) => allowed.includes(status))]);
    return rows[0] ? paymentFromRow(rows[0]) : null;
  }

  /** For provider callbacks, which know a reference and a mode but no developer. */
  async findByReference(mode: Mode, reference: string): Promise<PaymentEntity | null> {
    const { rows } = await runStatement<PaymentRow>(this.manager, FIND_BY_REFERENCE, [reference, mode]);
    return rows[0] ? paymentFromRow(rows[0]) : null;
  }

  /** Only the checkout redirect reads a payment without its tenant: the reference is the customer's link. */
  async findCheckout(reference: string): Promise<Pick<PaymentEntity, 'status' | 'providerAuthorizationUrl'> | null> {
    const { rows } = await runStatement<{ status: PaymentStatus; provider_authorization_url: string | null }>(this.manager, FIND_CHECKOUT, [reference]);
    return rows[0] ? { status: rows[0].status, providerAuthorizationUrl: rows[0].provider_authorization_url } : null;
  }

  async list(ctx: DeveloperContext, filter: PaymentListFilter): Promise<Page<PaymentView>> {
    const page = newestFirst.page(filter);
    const query = this.payments.createQueryBuilder('p').where('p.developer_id = :developerId AND p.mode = :mode', ctx);
    if (filter.status) query.andWhere('p.status = :status', { status: filter.status });
    if (filter.currency) query.andWhere('p.currency = :currency', { currency: filter.currency });
    if (filter.customerId) query.andWhere('p.customer_id = :customerId', { customerId: filter.customerId });
    if (filter.from) query.andWhere('p.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('p.created_at < :to', { to: filter.to });
    const rows = await page.applyTo(query, 'p').getMany();
    const authorizations = await this.authorizationsById(rows.map((r) => r.authorizationId).filter((id): id is string => id !== null));
    return page.toPage(rows, (payment) => ({ payment, authorization: payment.authorizationId ? (authorizations.get(payment.authorizationId) ?? null) : null }));
  }

  /** How many payments the list shows for `range` (exports' rows_total; uses payments_listing). */
  countCreated(ctx: DeveloperContext, range: PaymentExportRange): Promise<number> {
    const query = this.payments.createQueryBuilder('p').where('p.developer_id = :developerId AND p.mode = :mode', ctx);
    query.andWhere('p.created_at >= :from AND p.created_at < :to', range);
    if (range.status) query.andWhere('p.status = :status', { status: range.status });
    if (range.currency) query.andWhere('p.currency = :currency', { currency: range.currency });
    return query.getCount();
  }

  /**
   * Per currency, the payments created in [from, to): successful count and sum, failed or abandoned
   * count. Sums are PostgreSQL `numeric` (exact), read back as text. Uses payments_listing
   * (developer_id, mode, created_at).
   */
  async summarize(ctx: DeveloperContext, period: PaymentPeriod): Promise<PaymentSummary[]> {
    const rows: Array<{ currency: Currency; succeeded: number; unsuccessful: number; volume: string }> = await this.manager.query(
      `SELECT currency,
              count(*) FILTER (WHERE status = 'success')::int AS succeeded,
              count(*) FILTER (WHERE status IN ('failed', 'abandoned'))::int AS unsuccessful,
              COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0)::text AS volume
         FROM payments
        WHERE developer_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4 AND ($5::text IS NULL OR currency = $5)
        GROUP BY currency ORDER BY currency`,
      [ctx.developerId, ctx.mode, period.from, period.to, period.currency ?? null],
    );
    return rows.map((r) => ({ currency: r.currency, succeededCount: r.succeeded, succeededVolume: Amount.parse(r.volume), unsuccessfulCount: r.unsuccessful }));
  }

  /** The successful payments created in [from, to), per UTC day and currency (days without any are absent), oldest first. */
  async dailyVolume(ctx: DeveloperContext, period: PaymentPeriod): Promise<DailyPaymentVolume[]> {
    const rows: Array<{ day: string; currency: Currency; count: number; volume: string }> = await this.manager.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, count(*)::int AS count, sum(amount)::text AS volume
         FROM payments
        WHERE developer_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4 AND status = 'success' AND ($5::text IS NULL OR currency = $5)
        GROUP BY 1, currency ORDER BY 1, currency`,
      [ctx.developerId, ctx.mode, period.from, period.to, period.currency ?? null],
    );
    return rows.map((r) => ({ day: r.day, currency: r.currency, count: r.count, volume: Amount.parse(r.volume) }));
  }

  /**
   * Per currency, the `limit` customers with the largest successful volume paid in the UTC days
   * [from, to], largest first (ties: more payments, then the reference). The ranking reads only
   * payments_paid_by_tenant (developer_id, mode, paid_at) INCLUDE (currency, customer_id, amount)
   * WHERE status = 'success'; the reference and e-mail are then looked up for the winners only
   * (payments_customer_listing).
   */
  async topCustomers(ctx: DeveloperContext, period: PaidPeriod, limit: number): Promise<TopCustomer[]> {
    const rows: Array<{ currency: Currency; customer_reference: string; email: string; count: string; volume: string }> = await this.manager.query(
      `WITH ranked AS (
         SELECT currency, customer_id, count(*) AS count, sum(amount) AS volume,
                row_number() OVER (PARTITION BY currency ORDER BY sum(amount) DESC, count(*) DESC, customer_id) AS rank
           FROM payments
          WHERE developer_id = $1 AND mode = $2 AND status = 'success'
            AND paid_at >= ($3::date)::timestamp AT TIME ZONE 'UTC' AND paid_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'
            AND ($5::text IS NULL OR currency = $5)
          GROUP BY currency, customer_id)
       SELECT r.currency, latest.customer_reference, latest.email, r.count::text AS count, r.volume::text AS volume
         FROM ranked r
         CROSS JOIN LATERAL (SELECT customer_reference, email FROM payments
                              WHERE customer_id = r.customer_id AND developer_id = $1 AND mode = $2
                              ORDER BY created_at DESC, id DESC LIMIT 1) latest
        WHERE r.rank <= $6
        ORDER BY r.currency, r.rank`,
      [ctx.developerId, ctx.mode, period.from, period.to, period.currency ?? null, limit],
    );
    return rows.map((r) => ({ currency: r.currency, customerReference: r.customer_reference, email: r.email, count: Number(r.count), volume: Amount.parse(r.volume) }));
  }

  /**
   * The 'fail' transition (see PAYMENT_TRANSITIONS) with the provider's answer, only from the
   * statuses it allows. Returns false when the payment was no longer in such a status (another
   * request moved it first): exactly one of any number of concurrent movers wins.
   */
  async fail(manager: EntityManager, id: string, changes: PaymentFailureChanges): Promise<boolean> {
    const { rowCount } = await runStatement(manager, FAIL, [
      id,
      changes.gatewayResponse,
      changes.channel,
      changes.providerTransactionId,
      changes.updatedAt,
      fromStatesOf(PAYMENT_TRANSITIONS, 'fail'),
    ]);
    return rowCount === 1;
  }

  /** Stores the provider's checkout on the payment and returns the payment as GET shows it (null: no such payment). */
  async recordProviderCheckout(id: string, changes: { providerAccessCode: string; providerAuthorizationUrl: string; updatedAt: Date }): Promise<PaymentView | null> {
    const { rows } = await runStatement<PaymentRow>(this.manager, RECORD_CHECKOUT, [id, changes.providerAccessCode, changes.providerAuthorizationUrl, changes.updatedAt]);
    return rows[0] ? viewFromRow(rows[0]) : null;
  }

  findAuthorization(ctx: DeveloperContext, code: string, manager: EntityManager = this.manager): Promise<PaymentAuthorizationEntity | null> {
    return manager.getRepository(PaymentAuthorizationEntity).findOneBy({ code, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** The customer's most recent reusable saved card (by e-mail, case-insensitive), or null. */
  latestReusableAuthorization(ctx: DeveloperContext, email: string, manager: EntityManager = this.manager): Promise<PaymentAuthorizationEntity | null> {
    return manager
      .getRepository(PaymentAuthorizationEntity)
      .createQueryBuilder('a')
      .where('a.developer_id = :developerId AND a.mode = :mode AND lower(a.email) = lower(:email) AND a.reusable', { ...ctx, email: email.trim() })
      .orderBy('a.created_at', 'DESC')
      .getOne();
  }

  /** The saved card for this provider authorization and tenant, created on first sight (one round trip). */
  async saveAuthorization(manager: EntityManager, row: NewAuthorization): Promise<PaymentAuthorizationEntity> {
    const { rows: saved } = await runStatement<AuthorizationRow>(manager, SAVE_AUTHORIZATION, newAuthorizationValues(row));
    if (saved[0]) return authorizationFromRow(saved[0]);
    // A concurrent transaction inserted it after this statement's snapshot was taken: read it now.
    return manager.getRepository(PaymentAuthorizationEntity).findOneByOrFail({
      developerId: row.developerId,
      mode: row.mode,
      providerAuthorizationCode: row.providerAuthorizationCode,
    });
  }

  findAuthorizationById(manager: EntityManager, ctx: DeveloperContext, id: string): Promise<PaymentAuthorizationEntity | null> {
    return manager.getRepository(PaymentAuthorizationEntity).findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** The payment, its row locked until the transaction ends (refunds of one payment are decided one at a time). */
  async lockByReference(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<PaymentEntity | null> {
    const rows: PaymentRow[] = await manager.query(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.reference = $1 AND p.developer_id = $2 AND p.mode = $3 FOR UPDATE`, [
      reference,
      ctx.developerId,
      ctx.mode,
    ]);
    return rows[0] ? paymentFromRow(rows[0]) : null;
  }

  /** Adds `delta` (negative: gives it back) to what the payment has refunded. */
  async addRefunded(manager: EntityManager, id: string, delta: Amount, now: Date): Promise<void> {
    await manager.query(`UPDATE payments SET amount_refunded = amount_refunded + $2, updated_at = $3 WHERE id = $1`, [id, delta.toString(), now]);
  }

  /**
   * At most `limit` payments created before `before` and still unpaid (UNPAID_PAYMENT), oldest
   * first, become abandoned; optionally one tenant only. In the caller's transaction, each returned
   * with the status it left and when that was recorded. Rows another transaction holds (a verify or
   * a callback settling the payment, another scheduler's batch) are skipped, not waited for: the
   * next batch or run takes them if they are still unpaid, so concurrent scans never wait on each
   * other or deadlock, and a backlog goes in batches of bounded locks.
   */
  async abandonUnpaid(manager: EntityManager, before: Date, now: Date, limit: number, ctx?: DeveloperContext): Promise<AbandonedPayment[]> {
    const tenant = ctx ? 'AND developer_id = $5 AND mode = $6' : '';
    const [rows] = (await manager.query(
      `WITH due AS (
         SELECT id, status, updated_at FROM payments
          WHERE (${UNPAID_PAYMENT}) AND created_at < $1 ${tenant}
          ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE payments p SET status = $3, updated_at = $2 FROM due WHERE p.id = due.id
       RETURNING p.id, p.developer_id, p.mode, p.currency, due.status AS previous_status, due.updated_at AS previous_updated_at`,
      [before, now, targetOf(PAYMENT_TRANSITIONS, 'abandon'), limit, ...(ctx ? [ctx.developerId, ctx.mode] : [])],
    )) as [Array<{ id: string; developer_id: string; mode: Mode; currency: Currency; previous_status: PaymentStatus; previous_updated_at: Date }>, number];
    return rows.map((r) => ({ id: r.id, developerId: r.developer_id, mode: r.mode, currency: r.currency, previousStatus: r.previous_status, previousUpdatedAt: r.previous_updated_at }));
  }

  /**
   * Claims the mode's unconfirmed payment (pending or abandoned) whose reconciliation is most
   * overdue: first `after` past its creation, then once its age has doubled since the last claim,
   * never once it is older than `maxAge`. SKIP LOCKED: concurrent scans claim disjoint payments and
   * never wait for a callback or verify settling one. Null when none is due.
   *
   * Where the next due time lives (migration ScheduleReconciliationsApart): a payment never asked
   * about is found by its age (payments_reconcile_first, whose predicate holds only those with no
   * `reconcile_after`); its first claim stamps `reconcile_after` on the payment, once, and records
   * the next due time in payment_reconciliation_schedule. Every later claim moves that narrow row
   * only, so a payment nobody pays is written once by its reconciliation, not at each of its nine
   * asks (each of which, moving an indexed column of payments, added an entry to every index of the
   * table). A schedule whose payment has settled or aged out is removed when it comes due, and
   * answered with `ask: false`.
   */
  async claimForReconciliation(
    mode: Mode,
    now: Date,
    after: { ms: number },
    maxAge: { hours: number },
  ): Promise<{ developerId: string; reference: string; ask: boolean } | null> {
    const [row] = (await this.manager.query(CLAIM_FOR_RECONCILIATION, [mode, now, `${after.ms} milliseconds`, `${maxAge.hours} hours`])) as Array<{
      developer_id: string;
      reference: string;
      ask: boolean;
    }>;
    return row ? { developerId: row.developer_id, reference: row.reference, ask: row.ask } : null;
  }

  /**
   * Claims up to `limit` scheduled charges that are due — or whose earlier claim is older than
   * `staleBefore` (a scheduler that crashed before recording the provider's answer) — by stamping
   * triggered_at. SKIP LOCKED: concurrent schedulers claim disjoint rows, and a claimed row is
   * seen as taken by every later scan.
   */
  async claimDueScheduled(now: Date, staleBefore: Date, limit: number, ctx?: DeveloperContext): Promise<PaymentEntity[]> {
    const tenant = ctx ? 'AND developer_id = $4 AND mode = $5' : '';
    const rows: PaymentRow[] = await this.manager.query(
      `UPDATE payments p SET triggered_at = $1, updated_at = $1
        WHERE p.id IN (
          SELECT id FROM payments
           WHERE status = 'scheduled' AND charge_at <= $1 ${tenant}
             AND (triggered_at IS NULL OR triggered_at < $2)
           ORDER BY charge_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${PAYMENT_COLUMNS}`,
      ctx ? [now, staleBefore, limit, ctx.developerId, ctx.mode] : [now, staleBefore, limit],
    ).then((result: [PaymentRow[], number]) => result[0]);
    return rows.map(paymentFromRow);
  }

  /**
   * Cancels a scheduled charge not yet claimed by a scheduler. One conditional UPDATE: a cancel
   * racing the trigger ends as exactly one of the two. Returns false when nothing was cancelled.
   */
  async cancelSchedule(ctx: DeveloperContext, reference: string, now: Date): Promise<boolean> {
    const [, affected] = (await this.manager.query(
      `UPDATE payments SET status = $5, updated_at = $4
        WHERE reference = $1 AND developer_id = $2 AND mode = $3 AND status = ANY ($6::text[]) AND triggered_at IS NULL`,
      [reference, ctx.developerId, ctx.mode, now, targetOf(PAYMENT_TRANSITIONS, 'cancelSchedule'), fromStatesOf(PAYMENT_TRANSITIONS, 'cancelSchedule')],
    )) as [unknown, number];
    return affected === 1;
  }

  /** The provider's authorization code behind one of our saved cards (never shown to merchants). */
  async providerAuthorizationCode(ctx: DeveloperContext, authorizationId: string): Promise<string> {
    const card = await this.authorizations.findOneByOrFail({ id: authorizationId, developerId: ctx.developerId, mode: ctx.mode });
    return card.providerAuthorizationCode;
  }

  private async authorizationsById(ids: string[]): Promise<Map<string, PaymentAuthorizationEntity>> {
    if (!ids.length) return new Map();
    const rows = await this.authorizations.createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany();
    return new Map(rows.map((a) => [a.id, a]));
  }
}

/** A new payment's values but its customer's, in the order of INSERT's $1–$16 (and of payment-insert.statement.ts). */
export function newPaymentValues(row: Omit<NewPayment, 'customerId' | 'customerReference'>): unknown[] {
  return [
    row.developerId,
    row.mode,
    row.reference,
    row.status,
    row.email,
    row.amount.toString(),
    row.currency,
    row.callbackUrl,
    JSON.stringify(row.metadata),
    JSON.stringify(row.splits),
    row.idempotencyKey,
    row.idempotencyScope,
    row.requestHash,
    row.authorizationId,
    row.chargeAt,
    row.createdAt,
  ];
}

/** A new saved card's values, in the order of SAVE_AUTHORIZATION's $1–$15 (and of payment-success.statement.ts). */
export function newAuthorizationValues(row: NewAuthorization): unknown[] {
  return [
    row.developerId,
    row.mode,
    row.code,
    row.customerId,
    row.email,
    row.providerAuthorizationCode,
    row.providerSignature,
    row.reusable,
    row.brand,
    row.last4,
    row.expMonth,
    row.expYear,
    row.bank,
    row.channel,
    row.createdAt,
  ];
}

/** A success's changes, in the order of SUCCEED's $2–$11 (and of payment-success.statement.ts). */
export function successChangeValues(changes: PaymentSuccessChanges): unknown[] {
  return [
    changes.platformFee.toString(),
    changes.providerFee.toString(),
    changes.netAmount.toString(),
    JSON.stringify(changes.splits),
    changes.authorizationId,
    changes.gatewayResponse,
    changes.channel,
    changes.paidAt,
    changes.providerTransactionId,
    changes.updatedAt,
  ];
}
