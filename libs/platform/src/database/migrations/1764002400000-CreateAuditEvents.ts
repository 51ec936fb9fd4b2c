import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/audit-log.md): one row per security- or money-relevant action, written in the
 * transaction of the action itself. Append-only like the ledger: triggers refuse UPDATE, DELETE and
 * TRUNCATE. `seq` is the insertion order the lists page by (newest first) and `audit tail --follow`
 * polls after; occurred_at comes from the clock and may repeat.
 */
export class CreateAuditEvents1764002400000 implements MigrationInterface {
  name = 'CreateAuditEvents1764002400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        occurred_at timestamptz NOT NULL,
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key', 'operator', 'system')),
        actor_id text,
        actor_label text,
        developer_id uuid,
        action text NOT NULL,
        target_type text,
        target_id text,
        ip text,
        before jsonb,
        after jsonb
      )`);
    // Every filter is combined with the newest-first order on seq: one index per filter, ending in seq.
    await q.query(`CREATE INDEX audit_events_developer_seq ON audit_events (developer_id, seq DESC)`);
    await q.query(`CREATE INDEX audit_events_action_seq ON audit_events (action, seq DESC)`);
    await q.query(`CREATE INDEX audit_events_target_seq ON audit_events (target_type, target_id, seq DESC)`);
    await q.query(`CREATE INDEX audit_events_actor_label_seq ON audit_events (lower(actor_label), seq DESC)`);
    await q.query(`CREATE INDEX audit_events_occurred_at ON audit_events (occurred_at)`);
    await q.query(`
      CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'integrity_constraint_violation';
      END
      $$`);
    await q.query(`CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change()`);
    await q.query(`CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
    await q.query(`DROP FUNCTION audit_events_refuse_change()`);
  }
}
