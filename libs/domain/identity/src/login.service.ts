import { Injectable } from '@nestjs/common';
import { DomainError } from '@gateway/platform';
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
   * @throws too_many_attempts (address locked), authentication_failed (unknown e-mail, no
   * password set yet, or wrong password — all answered identically)
   */
  async verifyPassword(email: string, password: string): Promise<string> {
    await this.throttle.assertNotLocked(email);
    const user = await this.users.findByEmail(email);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      await this.throttle.recordFailure(email);
      throw new DomainError('authentication_failed', INVALID_CREDENTIALS_MESSAGE);
    }
    await this.throttle.reset(email);
    return user.id;
  }
}
