import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Portal e-mails waiting for the SMTP server: written with the change that causes them and sent by
 * the scheduler's job-queue worker (task `send_mail`), so a request never waits on — or fails
 * with — the mail server. The body holds link tokens, so it is sealed (AES-256-GCM, bound to the
 * row id); a row is deleted once its mail is sent.
 */
export class CreateOutboundMails1764001200000 implements MigrationInterface {
  name = 'CreateOutboundMails1764001200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbound_mails (
        id uuid PRIMARY KEY,
        recipient text NOT NULL,
        subject text NOT NULL,
        body_sealed text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbound_mails`);
  }
}
