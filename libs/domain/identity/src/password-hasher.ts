import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gateway/contracts';
import { DomainError } from '@gateway/platform';

// The maximum matters too: argon2 work grows with the input, so one request must not buy minutes of CPU.

// argon2id with the library defaults (64 MiB, t=3, p=4), above OWASP's minimum.
const HASH_OPTIONS = { type: argon2.argon2id } as const;

/**
 * Password hashing and checking. Verifying against a missing user runs a full argon2 check on a
 * dummy hash, so the answer takes as long whether or not the e-mail exists.
 */
@Injectable()
export class PasswordHasher {
  private dummyHash?: Promise<string>;

  /** @throws validation_error for a password outside the length policy */
  async hash(password: string): Promise<string> {
    assertPasswordPolicy(password);
    return argon2.hash(password, HASH_OPTIONS);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    if (password.length > PASSWORD_MAX_LENGTH) return false;
    if (!hash) {
      this.dummyHash ??= argon2.hash('not-a-password-of-anyone', HASH_OPTIONS);
      await argon2.verify(await this.dummyHash, password);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}

/** @throws validation_error */
export function assertPasswordPolicy(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new DomainError('validation_error', 'The request is invalid.', {
      [field]: [`must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`],
    });
  }
}
