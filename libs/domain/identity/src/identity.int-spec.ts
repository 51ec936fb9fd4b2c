import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { AccountRecoveryService } from './account-recovery.service';
import { IdentityHousekeepingService } from './identity-housekeeping.service';
import { IdentityModule } from './identity.module';
import { INVALID_CREDENTIALS_MESSAGE, LoginService } from './login.service';
import { MailerService } from './mail/mailer.service';
import { SessionsService } from './sessions.service';
import { TeamService } from './team.service';
import { UsersService } from './users.service';

const PASSWORD = 'correct horse battery staple';

describe('portal identity', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let team: TeamService;
  let login: LoginService;
  let sessions: SessionsService;
  let mailer: MailerService;

  let platformAdminId: string;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), DevelopersModule, IdentityModule]));
    platformAdminId = (await app.get(UsersService).createPlatformUser({ email: 'staff@example.com', name: 'Staff', password: PASSWORD, platformRole: 'admin' })).id;
    team = app.get(TeamService);
    login = app.get(LoginService);
    sessions = app.get(SessionsService);
    mailer = app.get(MailerService);
  });
  afterAll(() => app.close());

  async function tokenMailedTo(email: string): Promise<string> {
    const [latest] = await mailer.devMailbox(email);
    const token = latest?.body.match(/[?&]token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no token mailed to ${email}`);
    return token;
  }

  /** A developer account with an owner who accepted the invitation. */
  async function accountWithOwner(tag: string) {
    const developer = await app.get(DevelopersService).create({ email: `${tag}@example.com`, name: `Account ${tag}` });
    await team.invite({ userId: platformAdminId, accountRole: null }, developer.id, developer.email, 'owner');
    const owner = await team.acceptInvitation(await tokenMailedTo(developer.email), `Owner ${tag}`, PASSWORD);
    return { developerId: developer.id, owner: { userId: owner.userId, developerId: developer.id, role: 'owner' as const } };
  }

  async function addMember(owner: { userId: string; developerId: string; role: 'owner' }, email: string, role: 'admin' | 'developer' | 'viewer' | 'owner') {
    await team.invite({ userId: owner.userId, accountRole: owner.role }, owner.developerId, email, role);
    return team.acceptInvitation(await tokenMailedTo(email), email, PASSWORD);
  }

  describe('password login', () => {
    it('answers an unknown e-mail and a wrong password identically', async () => {
      await accountWithOwner('login-a');
      const unknown = login.verifyPassword('nobody@example.com', PASSWORD);
      const wrong = login.verifyPassword('login-a@example.com', 'wrong password entirely');
      await expect(unknown).rejects.toMatchObject({ code: 'authentication_failed', message: INVALID_CREDENTIALS_MESSAGE });
      await expect(wrong).rejects.toMatchObject({ code: 'authentication_failed', message: INVALID_CREDENTIALS_MESSAGE });
      expect(await login.verifyPassword('LOGIN-A@example.com ', PASSWORD)).toEqual(expect.any(String));
    });

    it('locks an address after 5 failures, even for the right password, and unlocks after the lockout period', async () => {
      await accountWithOwner('login-lock');
      for (let i = 0; i < 5; i++) {
        await expect(login.verifyPassword('login-lock@example.com', `wrong-${i}-password`)).rejects.toMatchObject({ code: 'authentication_failed' });
      }
      await expect(login.verifyPassword('login-lock@example.com', PASSWORD)).rejects.toMatchObject({ code: 'too_many_attempts' });
      clock.advance(15 * 60_000 + 1);
      expect(await login.verifyPassword('login-lock@example.com', PASSWORD)).toEqual(expect.any(String));
    });

    it('locks an unknown address the same way, so a lockout reveals nothing', async () => {
      for (let i = 0; i < 5; i++) {
        await expect(login.verifyPassword('ghost@example.com', `wrong-${i}-password`)).rejects.toMatchObject({ code: 'authentication_failed' });
      }
      await expect(login.verifyPassword('ghost@example.com', PASSWORD)).rejects.toMatchObject({ code: 'too_many_attempts' });
    });

    it('stores only an argon2id hash of the password', async () => {
      const rows: Array<{ password_hash: string }> = await app.get(DataSource).query("SELECT password_hash FROM users WHERE email = 'login-a@example.com'");
      expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
      expect(rows[0].password_hash).not.toContain(PASSWORD);
    });

    it("never puts back a password changed while a sign-in was upgrading the old one's hash", async () => {
      const users = app.get(UsersService);
      const { id } = await users.createPlatformUser({ email: 'login-race@example.com', name: 'Race', password: PASSWORD, platformRole: 'admin' });
      const hashOf = async () => ((await app.get(DataSource).query('SELECT password_hash FROM users WHERE id = $1', [id])) as Array<{ password_hash: string }>)[0].password_hash;
      const old = await hashOf();
      // The sign-in read `old` and checked the old password; the change commits before its upgrade.
      await users.setPassword(id, 'a brand new passphrase');
      const changed = await hashOf();
      await users.replacePasswordHash(id, old, '$argon2id$v=19$m=19456,t=2,p=1$of-the-old-password');
      expect(await hashOf()).toBe(changed);
      expect(await login.verifyPassword('login-race@example.com', 'a brand new passphrase')).toBe(id);
      await expect(login.verifyPassword('login-race@example.com', PASSWORD)).rejects.toMatchObject({ code: 'authentication_failed' });
    });
  });

  describe('sessions', () => {
    it('stores only the SHA-256 of the token and ends at the idle timeout', async () => {
      const { owner } = await accountWithOwner('session-idle');
      const started = await sessions.start(owner.userId, 'active');
      const rows: Array<{ token_hash: string }> = await app.get(DataSource).query('SELECT token_hash FROM portal_sessions WHERE id = $1', [started.session.id]);
      expect(rows[0].token_hash).not.toContain(started.token);
      expect((await sessions.resolve(started.token))?.actor).toMatchObject({ userId: owner.userId, account: { role: 'owner' } });
      clock.advance(29 * 60_000);
      expect(await sessions.resolve(started.token)).not.toBeNull();
      clock.advance(30 * 60_000 + 1);
      expect(await sessions.resolve(started.token)).toBeNull();
    });

    it('ends at the absolute expiry however active it is', async () => {
      const { owner } = await accountWithOwner('session-absolute');
      const started = await sessions.start(owner.userId, 'active');
      for (let hour = 0; hour < 12; hour++) {
        expect(await sessions.resolve(started.token)).not.toBeNull();
        clock.advance(20 * 60_000);
        expect(await sessions.resolve(started.token)).not.toBeNull();
        clock.advance(20 * 60_000);
        expect(await sessions.resolve(started.token)).not.toBeNull();
        clock.advance(20 * 60_000);
      }
      expect(await sessions.resolve(started.token)).toBeNull();
    });

    it('replaces a pending session by a new token once the second factor is given', async () => {
      const { owner } = await accountWithOwner('session-promote');
      const pending = await sessions.start(owner.userId, 'pending_totp');
      const active = await sessions.promote(pending.session.id);
      expect(await sessions.resolve(pending.token)).toBeNull();
      expect((await sessions.resolve(active.token))?.stage).toBe('active');
    });
  });

  describe('team', () => {
    it('keeps the last owner: cannot be demoted or removed', async () => {
      const { owner } = await accountWithOwner('team-owner');
      await expect(team.changeRole(owner, owner.userId, 'admin')).rejects.toMatchObject({ code: 'last_owner' });
      await expect(team.removeMember(owner, owner.userId)).rejects.toMatchObject({ code: 'last_owner' });
      const second = await addMember(owner, 'second-owner@example.com', 'owner');
      await team.changeRole(owner, owner.userId, 'admin');
      expect((await team.listMembers(owner.developerId)).map((m) => [m.userId, m.role])).toEqual([
        [owner.userId, 'admin'],
        [second.userId, 'owner'],
      ]);
    });

    it('lets an admin manage members but not owners', async () => {
      const { owner } = await accountWithOwner('team-admin');
      const admin = await addMember(owner, 'team-admin-admin@example.com', 'admin');
      const viewer = await addMember(owner, 'team-admin-viewer@example.com', 'viewer');
      const asAdmin = { userId: admin.userId, developerId: owner.developerId, role: 'admin' as const };
      expect((await team.changeRole(asAdmin, viewer.userId, 'developer')).role).toBe('developer');
      await expect(team.changeRole(asAdmin, viewer.userId, 'owner')).rejects.toMatchObject({ code: 'insufficient_role' });
      await expect(team.changeRole(asAdmin, owner.userId, 'viewer')).rejects.toMatchObject({ code: 'insufficient_role' });
      await expect(team.removeMember(asAdmin, owner.userId)).rejects.toMatchObject({ code: 'insufficient_role' });
      await expect(team.invite({ userId: admin.userId, accountRole: 'admin' }, owner.developerId, 'x@example.com', 'owner')).rejects.toMatchObject({ code: 'insufficient_role' });
    });

    it("answers another account's member as not found", async () => {
      const a = await accountWithOwner('team-iso-a');
      const b = await accountWithOwner('team-iso-b');
      await expect(team.changeRole(a.owner, b.owner.userId, 'viewer')).rejects.toMatchObject({ code: 'user_not_found' });
      await expect(team.removeMember(a.owner, b.owner.userId)).rejects.toMatchObject({ code: 'user_not_found' });
    });

    it('removing a member deletes their user and ends their sessions', async () => {
      const { owner } = await accountWithOwner('team-remove');
      const dev = await addMember(owner, 'team-remove-dev@example.com', 'developer');
      const session = await sessions.start(dev.userId, 'active');
      await team.removeMember(owner, dev.userId);
      expect(await sessions.resolve(session.token)).toBeNull();
      expect(await app.get(UsersService).findByEmail('team-remove-dev@example.com')).toBeNull();
    });

    it('accepting an invitation is single-use and verifies the account e-mail of its owner', async () => {
      const developer = await app.get(DevelopersService).create({ email: 'invite-once@example.com', name: 'Once' });
      await team.invite({ userId: platformAdminId, accountRole: null }, developer.id, developer.email, 'owner');
      const token = await tokenMailedTo(developer.email);
      await team.acceptInvitation(token, 'Once', PASSWORD);
      await expect(team.acceptInvitation(token, 'Twice', PASSWORD)).rejects.toMatchObject({ code: 'invalid_token' });
      expect((await app.get(DevelopersService).get(developer.id)).emailVerifiedAt).not.toBeNull();
    });

    it('an invitation expires after 7 days and refuses a weak password without using up the link', async () => {
      const { owner } = await accountWithOwner('team-expiry');
      await team.invite({ userId: owner.userId, accountRole: 'owner' }, owner.developerId, 'late@example.com', 'viewer');
      const token = await tokenMailedTo('late@example.com');
      await expect(team.acceptInvitation(token, 'Late', 'short')).rejects.toMatchObject({ code: 'validation_error' });
      clock.advance(7 * 24 * 3_600_000 + 1);
      await expect(team.acceptInvitation(token, 'Late', PASSWORD)).rejects.toMatchObject({ code: 'invalid_token' });
    });
  });

  describe('housekeeping', () => {
    it('deletes ended sessions and stale throttle rows, keeps live ones', async () => {
      const { owner } = await accountWithOwner('housekeeping');
      const idle = await sessions.start(owner.userId, 'active');
      clock.advance(20 * 60_000);
      const fresh = await sessions.start(owner.userId, 'active');
      await expect(login.verifyPassword('housekeeping@example.com', 'wrong password here')).rejects.toMatchObject({ code: 'authentication_failed' });
      clock.advance(15 * 60_000 + 1);

      const result = await app.get(IdentityHousekeepingService).purge();
      expect(result.sessions).toBeGreaterThanOrEqual(1);
      expect(result.throttles).toBeGreaterThanOrEqual(1);
      const left: Array<{ id: string }> = await app.get(DataSource).query('SELECT id FROM portal_sessions WHERE user_id = $1', [owner.userId]);
      expect(left.map((r) => r.id)).toEqual([fresh.session.id]);
      expect(left.map((r) => r.id)).not.toContain(idle.session.id);
    });
  });

  describe('password reset', () => {
    it('sets the new password once, ends every session, and the link expires after an hour', async () => {
      const { owner } = await accountWithOwner('reset');
      const session = await sessions.start(owner.userId, 'active');
      const recovery = app.get(AccountRecoveryService);
      await recovery.requestPasswordReset('reset@example.com');
      const token = await tokenMailedTo('reset@example.com');
      await recovery.confirmPasswordReset(token, 'a brand new passphrase');
      expect(await sessions.resolve(session.token)).toBeNull();
      await expect(recovery.confirmPasswordReset(token, 'yet another passphrase')).rejects.toMatchObject({ code: 'invalid_token' });
      expect(await login.verifyPassword('reset@example.com', 'a brand new passphrase')).toBe(owner.userId);

      await recovery.requestPasswordReset('reset@example.com');
      const late = await tokenMailedTo('reset@example.com');
      clock.advance(60 * 60_000 + 1);
      await expect(recovery.confirmPasswordReset(late, 'too late passphrase')).rejects.toMatchObject({ code: 'invalid_token' });
    });

    it('sends nothing for an unknown address and answers the same', async () => {
      await expect(app.get(AccountRecoveryService).requestPasswordReset('unknown-reset@example.com')).resolves.toBeUndefined();
      expect(await mailer.devMailbox('unknown-reset@example.com')).toEqual([]);
    });

    it('only the newest reset link works', async () => {
      await accountWithOwner('reset-newest');
      const recovery = app.get(AccountRecoveryService);
      await recovery.requestPasswordReset('reset-newest@example.com');
      const first = await tokenMailedTo('reset-newest@example.com');
      await recovery.requestPasswordReset('reset-newest@example.com');
      await expect(recovery.confirmPasswordReset(first, 'a brand new passphrase')).rejects.toMatchObject({ code: 'invalid_token' });
    });
  });
});
