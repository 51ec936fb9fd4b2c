import { Injectable } from '@nestjs/common';
import { DomainError, validationError } from '@gateway/platform';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordHasher } from './password-hasher';
import { UsersService } from './users.service';

/** One message for every wrong e-mail/password combination: it must not reveal which part was wrong. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid e-mail or password.';

/** Checks an e-mail and password (the first login step). */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottleService,
  ) {}

  /**
   * Returns the user id when the password is right.
   * @throws validation_error (e-mail or password not a string: refused before any lookup or
   * hash, so the answer cannot depend on the account), too_many_attempts (address locked),
   * authentication_failed (unknown e-mail, no password set yet, or wrong password — all answered
   * identically), service_unavailable (too many passwords being checked at once)
   */
  async verifyPassword(email: unknown, password: unknown): Promise<string> {
    if (typeof email !== 'string' || typeof password !== 'string') {
      throw validationError(typeof email !== 'string' ? 'email' : 'password', 'must be a string');
    }
    this.hasher.assertRoom();
    await this.throttle.assertNotLocked(email);
    const user = await this.users.findByEmail(email);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, password);
    // `ok` is never true without a stored hash; testing for it too types it for the upgrade below.
    if (!user?.passwordHash || !ok) {
      await this.throttle.recordFailure(email);
      throw new DomainError('authentication_failed', INVALID_CREDENTIALS_MESSAGE);
    }
    await this.throttle.reset(email);
    // A hash made before the operator changed the cost is made again at the new one, now that the
    // password is at hand: the only moment it is.
    const upgraded = await this.hasher.upgrade(user.passwordHash, password);
    if (upgraded) await this.users.replacePasswordHash(user.id, user.passwordHash, upgraded);
    return user.id;
  }
}
