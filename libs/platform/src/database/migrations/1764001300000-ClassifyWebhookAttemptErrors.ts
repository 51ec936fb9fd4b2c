import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery logs keep a failed attempt's error as a short class only, and a receiver's body only
 * from targets the live-mode URL rules accept (issue 10, item 2): the socket's own words and what a
 * loopback service answered turned the log into a port scanner for any test key.
 *
 * Existing errors are mapped to their class (by the texts the gateway used to write), and a CHECK
 * keeps any other text out from now on. The list is written out here, not imported, so this
 * migration does the same thing whatever the code's list becomes later; adding a class is a new
 * migration. Existing response bodies are cleared: which address an old attempt reached cannot be
 * told after the fact. `down` drops the CHECK only; the old texts and bodies are gone for good.
 */
const CLASSES = `'http_status', 'timeout', 'dns', 'refused', 'tls', 'invalid_response', 'connection', 'url_not_allowed', 'not_sent'`;

export class ClassifyWebhookAttemptErrors1764001300000 implements MigrationInterface {
  name = 'ClassifyWebhookAttemptErrors1764001300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE webhook_delivery_logs SET error = CASE
          WHEN error LIKE 'receiver answered %' THEN 'http_status'
          WHEN error LIKE 'timed out%' OR error LIKE '%ETIMEDOUT%' THEN 'timeout'
          WHEN error LIKE 'url must%' OR error LIKE '%EADDRNOTALLOWED%' THEN 'url_not_allowed'
          WHEN error LIKE '%does not resolve%' OR error LIKE '%ENOTFOUND%' OR error LIKE '%EAI\\_%' THEN 'dns'
          WHEN error LIKE '%ECONNREFUSED%' THEN 'refused'
          WHEN error ILIKE '%certificate%' OR error ILIKE '%self%signed%' OR error LIKE '%SSL%' OR error LIKE '%TLS%' OR error LIKE '%EPROTO%' THEN 'tls'
          WHEN error LIKE 'Parse Error%' OR error LIKE '%HPE\\_%' THEN 'invalid_response'
          WHEN error LIKE 'the signing secret could not be decrypted%' OR error LIKE 'event % not found' OR error LIKE 'the delivery could not be prepared%' THEN 'not_sent'
          ELSE 'connection'
        END
        WHERE error IS NOT NULL AND error NOT IN (${CLASSES})`);
    await q.query(`UPDATE webhook_delivery_logs SET response_body = NULL WHERE response_body IS NOT NULL`);
    await q.query(`
      ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_error_class
        CHECK (error IN (${CLASSES}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_error_class`);
  }
}
