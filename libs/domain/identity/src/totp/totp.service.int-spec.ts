import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule } from '@gateway/domain/developers';
import { ConfigModule, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { IdentityModule } from '../identity.module';
import { UsersService } from '../users.service';
import { totpCodeAt } from './totp-codes';
import { TotpService } from './totp.service';

describe('TotpService', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let totp: TotpService;
  let users: UsersService;
  let n = 0;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), DevelopersModule, IdentityModule]));
    totp = app.get(TotpService);
    users = app.get(UsersService);
  });
  afterAll(() => app.close());

  async function enrolledUser(): Promise<{ userId: string; secret: string }> {
    n += 1;
    const user = await users.createPlatformUser({ email: `totp-${n}@example.com`, name: 'T', password: 'correct horse battery staple', platformRole: 'admin' });
    const { secret } = await totp.enroll(user.id, user.email);
    await totp.confirm(user.id, totpCodeAt(secret, clock.now()));
    clock.advance(90_000); // well past the confirming code's step, which is spent
    return { userId: user.id, secret };
  }

  it('stores the secret only encrypted, naming its key id', async () => {
    const user = await users.createPlatformUser({ email: 'totp-stored@example.com', name: 'T', password: 'correct horse battery staple', platformRole: 'admin' });
    const { secret, otpauthUrl } = await totp.enroll(user.id, user.email);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const [row] = await app.get(DataSource).query('SELECT secret_ciphertext FROM user_totp WHERE user_id = $1', [user.id]);
    expect(row.secret_ciphertext).not.toContain(secret);
    expect(row.secret_ciphertext).toMatch(/^v1\.ephemeral\./);
    expect(await totp.isEnabled(user.id)).toBe(false);
  });

  it('activates only with a valid code and refuses to enrol twice', async () => {
    const user = await users.createPlatformUser({ email: 'totp-confirm@example.com', name: 'T', password: 'correct horse battery staple', platformRole: 'admin' });
    await expect(totp.confirm(user.id, '123456')).rejects.toMatchObject({ code: 'totp_required' });
    await expect(totp.verify(user.id, '123456')).rejects.toMatchObject({ code: 'totp_required' });
    const { secret } = await totp.enroll(user.id, user.email);
    const wrong = totpCodeAt(secret, new Date(clock.now().getTime() + 10 * 60_000));
    await expect(totp.confirm(user.id, wrong)).rejects.toMatchObject({ code: 'totp_invalid' });
    await totp.confirm(user.id, totpCodeAt(secret, clock.now()));
    expect(await totp.isEnabled(user.id)).toBe(true);
    await expect(totp.enroll(user.id, user.email)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('accepts codes one step early or late, not two', async () => {
    const { userId, secret } = await enrolledUser();
    const now = clock.now().getTime();
    await expect(totp.verify(userId, totpCodeAt(secret, new Date(now - 60_000)))).rejects.toMatchObject({ code: 'totp_invalid' });
    await totp.verify(userId, totpCodeAt(secret, new Date(now - 30_000)));
    await totp.verify(userId, totpCodeAt(secret, new Date(now + 30_000)));
    await expect(totp.verify(userId, totpCodeAt(secret, new Date(now + 90_000)))).rejects.toMatchObject({ code: 'totp_invalid' });
  });

  it('refuses a code once used, and any code of an earlier step', async () => {
    const { userId, secret } = await enrolledUser();
    const code = totpCodeAt(secret, clock.now());
    await totp.verify(userId, code);
    await expect(totp.verify(userId, code)).rejects.toMatchObject({ code: 'totp_invalid', message: expect.stringContaining('already been used') });
    await expect(totp.verify(userId, totpCodeAt(secret, new Date(clock.now().getTime() - 30_000)))).rejects.toMatchObject({ code: 'totp_invalid' });
  });

  it('locks after 5 consecutive wrong codes, even for the right one, until the lockout period ends', async () => {
    const { userId, secret } = await enrolledUser();
    for (let i = 0; i < 5; i++) {
      await expect(totp.verify(userId, '000000' === totpCodeAt(secret, clock.now()) ? '111111' : '000000')).rejects.toMatchObject({ code: 'totp_invalid' });
    }
    await expect(totp.verify(userId, totpCodeAt(secret, clock.now()))).rejects.toMatchObject({ code: 'too_many_attempts' });
    clock.advance(15 * 60_000 + 1);
    await totp.verify(userId, totpCodeAt(secret, clock.now()));
  });

  it('a success resets the failure count', async () => {
    const { userId, secret } = await enrolledUser();
    const wrong = () => ('000000' === totpCodeAt(secret, clock.now()) ? '111111' : '000000');
    for (let i = 0; i < 4; i++) await expect(totp.verify(userId, wrong())).rejects.toMatchObject({ code: 'totp_invalid' });
    await totp.verify(userId, totpCodeAt(secret, clock.now()));
    clock.advance(30_000);
    for (let i = 0; i < 4; i++) await expect(totp.verify(userId, wrong())).rejects.toMatchObject({ code: 'totp_invalid' });
    await totp.verify(userId, totpCodeAt(secret, clock.now()));
  });

  it("does not decrypt a secret copied onto another user's row", async () => {
    const a = await enrolledUser();
    const b = await enrolledUser();
    await app.get(DataSource).query('UPDATE user_totp SET secret_ciphertext = (SELECT secret_ciphertext FROM user_totp WHERE user_id = $1) WHERE user_id = $2', [a.userId, b.userId]);
    await expect(totp.verify(b.userId, totpCodeAt(a.secret, clock.now()))).rejects.toThrow(/failed authentication/);
  });
});
