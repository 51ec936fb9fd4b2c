import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People who use the portal: users with an argon2id password, their membership of one developer
 * account, server-side sessions, TOTP second factors, one-time e-mail tokens, the login throttle
 * and the development mailbox. Every token or session secret is stored only as its SHA-256.
 */
export class CreatePortalIdentity1764000300000 implements MigrationInterface {
  name = 'CreatePortalIdentity1764000300000';

  async up(q: QueryRunner): Promise<void> {
    // Platform staff carry a platform_role and may have no developer account.
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        name text NOT NULL CHECK (name <> ''),
        password_hash text,
        platform_role text CHECK (platform_role IN ('admin', 'financial_secretary')),
        email_verified_at timestamptz,
        password_changed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);

    // The primary key on user_id is the rule "a user belongs to one developer account".
    await q.query(`
      CREATE TABLE memberships (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX memberships_developer_idx ON memberships (developer_id, role)`);

    // secret_ciphertext is an AES-256-GCM envelope that names its key id (key rotation).
    await q.query(`
      CREATE TABLE user_totp (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        secret_ciphertext text NOT NULL,
        confirmed_at timestamptz,
        last_used_step bigint,
        consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    // stage 'pending_totp' = password accepted, second factor still owed (short-lived). The CSRF
    // token is derived from the session token (HMAC), so it needs no column.
    await q.query(`
      CREATE TABLE portal_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash char(64) NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        stage text NOT NULL CHECK (stage IN ('pending_totp', 'active')),
        mode text NOT NULL DEFAULT 'test' CHECK (mode IN ('test', 'live')),
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ip text,
        user_agent text
      )`);
    await q.query(`CREATE INDEX portal_sessions_user_idx ON portal_sessions (user_id)`);
    await q.query(`CREATE INDEX portal_sessions_expires_idx ON portal_sessions (expires_at)`);

    // Keyed by the SHA-256 of the normalised e-mail, whether or not a user has it, so a
    // lockout never tells an attacker which addresses exist.
    await q.query(`
      CREATE TABLE portal_login_throttle (
        email_hash char(64) PRIMARY KEY,
        failures integer NOT NULL CHECK (failures >= 0),
        window_started_at timestamptz NOT NULL,
        locked_until timestamptz
      )`);

    await q.query(`
      CREATE TABLE portal_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash char(64) NOT NULL UNIQUE,
        purpose text NOT NULL CHECK (purpose IN ('email_verification', 'password_reset', 'invitation')),
        email text NOT NULL,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        developer_id uuid REFERENCES developers (id) ON DELETE CASCADE,
        role text CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CHECK (purpose <> 'invitation' OR (developer_id IS NOT NULL AND role IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX portal_tokens_lookup_idx ON portal_tokens (purpose, email) WHERE used_at IS NULL`);

    // Outgoing mail when SMTP_URL is not configured (development and tests only).
    await q.query(`
      CREATE TABLE dev_mailbox (
        -- A sequence, not a uuid: mails sent within the same instant must still list in order.
        id bigserial PRIMARY KEY,
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX dev_mailbox_recipient_idx ON dev_mailbox (recipient, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dev_mailbox`);
    await q.query(`DROP TABLE portal_tokens`);
    await q.query(`DROP TABLE portal_login_throttle`);
    await q.query(`DROP TABLE portal_sessions`);
    await q.query(`DROP TABLE user_totp`);
    await q.query(`DROP TABLE memberships`);
    await q.query(`DROP TABLE users`);
  }
}
