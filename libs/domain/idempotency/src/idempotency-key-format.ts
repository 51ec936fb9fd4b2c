export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

// Space (0x20) through tilde (0x7E): what survives any HTTP header or log line unchanged.
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** Why `key` is not an acceptable idempotency key (1–255 printable ASCII characters), or null. */
export function idempotencyKeyProblem(key: string): string | null {
  if (key.length === 0) return 'must not be empty';
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  if (!PRINTABLE_ASCII.test(key)) return 'must contain only printable ASCII characters';
  return null;
}
