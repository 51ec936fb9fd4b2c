import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gateway/contracts';
import { APP_CONFIG, type AppConfig, BoundedConcurrency, ConcurrencyQueueFullError, DomainError } from '@gateway/platform';

// The maximum matters too: argon2 work grows with the input, so one request must not buy minutes of CPU.

/**
 * What a password is checked against when the address has no account (or no password yet), at
 * the default cost (PORTAL_PASSWORD_HASH_*: 64 MiB, t=3, p=4): a hash of random bytes nobody kept.
 * A constant rather than one made at first use, so the first unknown address costs no extra hash
 * either (password-hasher.spec.ts checks that its parameters still equal those of a fresh hash).
 */
export const DUMMY_HASH = '$argon2id$v=19$m=65536,t=3,p=4$r9l1LL8wkVqqiQ+LUKaEmQ$BxRPJHjdoseVvMkksf/2n8FImH4zDjyx+m1uRk75QxE';

/**
 * Password hashing and checking, argon2id at the configured cost. Verifying against a missing user
 * runs the very same argon2 check on a hash of that cost, so the answer costs as long and ends the
 * same way whether or not the e-mail exists.
 *
 * Every hash takes a slot of a bounded queue (PORTAL_PASSWORD_HASH_CONCURRENCY at once,
 * PORTAL_PASSWORD_HASH_QUEUE waiting): a flood of sign-ins cannot pile up argon2 work behind which
 * a real user would wait for seconds; past the queue the answer is an immediate 503.
 */
@Injectable()
export class PasswordHasher {
  private readonly slots: BoundedConcurrency;
  private readonly options: argon2.Options;
  /** DUMMY_HASH, or for another cost one made at start-up (in the background) with it. */
  private readonly dummy: Promise<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { concurrency, maxWaiting, memoryKiB, iterations, parallelism } = config.portal.passwordHashing;
    this.slots = new BoundedConcurrency(concurrency, maxWaiting);
    this.options = { type: argon2.argon2id, memoryCost: memoryKiB, timeCost: iterations, parallelism };
    this.dummy = this.needsRehash(DUMMY_HASH) ? argon2.hash(randomBytes(32), this.options) : Promise.resolve(DUMMY_HASH);
    // A failure shows where it is awaited (verify answers false); unobserved, it must not end the process.
    this.dummy.catch(() => undefined);
  }

  /** @throws validation_error for a password outside the length policy; service_unavailable when the hashing queue is full */
  async hash(password: string): Promise<string> {
    assertPasswordPolicy(password);
    return this.inTurn(() => argon2.hash(password, this.options));
  }

  /** @throws service_unavailable when the hashing queue is full (for a known and an unknown address alike) */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (password.length > PASSWORD_MAX_LENGTH) return false;
    const matches = await this.inTurn(() => this.matches(hash ?? this.dummy, password));
    return hash !== null && matches;
  }

  /**
   * A new hash of a password just verified against `stored`, when `stored` was made at another
   * cost (PORTAL_PASSWORD_HASH_* changed since); null when it need not change, or when every
   * hashing slot is taken (a later sign-in upgrades it). No policy check: the password is already
   * the user's, and a policy tightened since is for the next change of password.
   */
  async upgrade(stored: string, password: string): Promise<string | null> {
    if (!this.needsRehash(stored) || !this.slots.hasRoom) return null;
    return this.inTurn(() => argon2.hash(password, this.options));
  }

  /** Whether a stored hash was made at another cost than the configured one (or cannot be read). */
  private needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, this.options);
    } catch {
      return true;
    }
  }

  /**
   * For callers with work to do before hashing (database lookups): refuses at once, before that
   * work, when the hash would be refused anyway, so a flood costs the database nothing either.
   * @throws service_unavailable when the hashing queue is full
   */
  assertRoom(): void {
    if (!this.slots.hasRoom) throw busy();
  }

  /** argon2's check; false, never an error, for a hash it cannot read. */
  private async matches(hash: string | Promise<string>, password: string): Promise<boolean> {
    try {
      return await argon2.verify(await hash, password);
    } catch {
      return false;
    }
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.slots.run(work);
    } catch (error) {
      if (error instanceof ConcurrencyQueueFullError) throw busy();
      throw error;
    }
  }
}

function busy(): DomainError {
  return new DomainError('service_unavailable', 'Too many sign-ins are being checked right now. Try again in a few seconds.');
}

/** @throws validation_error */
export function assertPasswordPolicy(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new DomainError('validation_error', 'The request is invalid.', {
      [field]: [`must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`],
    });
  }
}
