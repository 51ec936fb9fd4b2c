import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Node's one-shot hash: no Hash object per call (every API request hashes its key at least once). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
