import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscription plans, subscriptions and the payments made for their periods (docs/subscriptions.md).
 *
 * - `subscriptions.next_billing_at` is when the billing scan charges next (a period's date or a
 *   retry's); the scan claims due rows with `claimed_at` (stale after a while: a crashed scheduler).
 * - `subscription_charges` maps each payment to the subscription period it pays: one row per
 *   (subscription, period, attempt), and a payment pays one period only. The payment itself is
 *   unique per (tenant, scope `subscription`, key `<subscription id>:<period>:<attempt>`), so a
 *   retried attempt resumes the same payment and the provider sees the same reference.
 */
export class CreateSubscriptions1764002200000 implements MigrationInterface {
  name = 'CreateSubscriptions1764002200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subscription_plans (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        public_id text NOT NULL UNIQUE,
        name text NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        interval text NOT NULL CHECK (interval IN ('daily', 'weekly', 'monthly', 'yearly')),
        trial_period_days integer NOT NULL CHECK (trial_period_days >= 0),
        active boolean NOT NULL,
        archived_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX subscription_plans_listing ON subscription_plans (developer_id, mode, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        public_id text NOT NULL UNIQUE,
        plan_id uuid NOT NULL REFERENCES subscription_plans (id),
        plan_public_id text NOT NULL,
        customer_id uuid NOT NULL,
        customer_reference text NOT NULL,
        email text NOT NULL,
        authorization_code text NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        interval text NOT NULL CHECK (interval IN ('daily', 'weekly', 'monthly', 'yearly')),
        status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'paused', 'cancelled')),
        trial_end_at timestamptz,
        billing_anchor_at timestamptz NOT NULL,
        current_period_start timestamptz NOT NULL,
        current_period_end timestamptz NOT NULL,
        due_period integer NOT NULL CHECK (due_period >= 1),
        next_billing_at timestamptz,
        failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        past_due_since timestamptz,
        claimed_at timestamptz,
        latest_payment_reference text,
        latest_charge_status text CHECK (latest_charge_status IN ('pending', 'success', 'failed')),
        paused_at timestamptz,
        cancelled_at timestamptz,
        cancellation_reason text CHECK (cancellation_reason IN ('requested', 'payment_failed')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((status IN ('paused', 'cancelled')) = (next_billing_at IS NULL))
      )`);
    await q.query(`CREATE INDEX subscriptions_listing ON subscriptions (developer_id, mode, created_at DESC, id DESC)`);
    // The billing scan's work: billable subscriptions by their next charge.
    await q.query(`CREATE INDEX subscriptions_due ON subscriptions (next_billing_at) WHERE status IN ('trialing', 'active', 'past_due')`);

    await q.query(`
      CREATE TABLE subscription_charges (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        subscription_id uuid NOT NULL REFERENCES subscriptions (id),
        period integer NOT NULL CHECK (period >= 1),
        attempt integer NOT NULL CHECK (attempt >= 1),
        payment_id uuid NOT NULL,
        payment_reference text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
        attempted_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX subscription_charges_payment ON subscription_charges (payment_id)`);
    await q.query(`CREATE UNIQUE INDEX subscription_charges_attempt ON subscription_charges (subscription_id, period, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE subscription_charges`);
    await q.query(`DROP TABLE subscriptions`);
    await q.query(`DROP TABLE subscription_plans`);
  }
}
