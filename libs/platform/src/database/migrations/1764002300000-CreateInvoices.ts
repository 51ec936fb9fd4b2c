import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices (docs/invoices.md) and the payments started through their payment links. Money is
 * numeric(20,2); a payment counts towards one invoice at most (payment_id is unique), which is how
 * the payment's success finds its invoice inside the payment's own transaction.
 */
export class CreateInvoices1764002300000 implements MigrationInterface {
  name = 'CreateInvoices1764002300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invoices (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        customer_id uuid NOT NULL,
        customer_reference text NOT NULL,
        currency text NOT NULL,
        due_date date NOT NULL,
        line_items jsonb NOT NULL,
        total_amount numeric(20,2) NOT NULL CHECK (total_amount > 0),
        amount_paid numeric(20,2) NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
        status text NOT NULL CHECK (status IN ('draft', 'sent', 'partially_paid', 'paid', 'overdue', 'cancelled')),
        link_token text UNIQUE,
        sent_at timestamptz,
        paid_at timestamptz,
        overdue_at timestamptz,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX invoices_tenant_created ON invoices (developer_id, mode, created_at DESC, id DESC)`);
    // The overdue scan: only invoices that can still become overdue.
    await q.query(`CREATE INDEX invoices_overdue_scan ON invoices (due_date) WHERE status IN ('sent', 'partially_paid')`);
    await q.query(`
      CREATE TABLE invoice_payments (
        id uuid PRIMARY KEY,
        invoice_id uuid NOT NULL REFERENCES invoices (id),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        payment_id uuid UNIQUE,
        payment_reference text,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        succeeded_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX invoice_payments_invoice ON invoice_payments (invoice_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invoice_payments`);
    await q.query(`DROP TABLE invoices`);
  }
}
