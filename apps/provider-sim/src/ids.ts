import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Unguessable lowercase alphanumeric token. Rejection sampling keeps every
 * character uniformly distributed (256 is not a multiple of 36).
 */
export function randomToken(length: number): string {
  let token = '';
  while (token.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 252) continue; // 252 = 7 × 36; larger bytes would bias the first characters
      token += ALPHABET[byte % ALPHABET.length];
      if (token.length === length) break;
    }
  }
  return token;
}

/**
 * Numeric ids and Paystack-style codes. Numeric ids are global to one
 * simulator instance (not per account) so an id never means two things. They start at a
 * random point, as a real provider's ids do not restart at 1: several simulators serving one
 * gateway database (parallel test files) then never hand out the same refund or transfer id.
 */
export class IdGenerator {
  private nextNumericId = 1_000_000_000 + randomInt(0, 2 ** 40);
  private nextDedicatedAccountNumber = 9_100_000_001;

  numericId(): number {
    return this.nextNumericId++;
  }

  /** e.g. code('CUS') → "CUS_x8k2m0q9a7b3c1d" */
  code(prefix: string, length = 15): string {
    return `${prefix}_${randomToken(length)}`;
  }

  accessCode(): string {
    return randomToken(15);
  }

  /** A reference for objects the provider creates on its own (deposits). */
  reference(): string {
    return randomToken(20);
  }

  /** Ten digits, unique within this simulator instance, never the failing test number. */
  dedicatedAccountNumber(): string {
    return String(this.nextDedicatedAccountNumber++);
  }
}
