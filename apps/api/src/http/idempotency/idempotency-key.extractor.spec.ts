import { DomainError } from '@gateway/platform';
import { extractIdempotencyKey } from './idempotency-key.extractor';

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('extractIdempotencyKey', () => {
  it('has no key when none is sent', () => {
    expect(extractIdempotencyKey({}, { email: 'a@example.com' })).toBeUndefined();
    expect(extractIdempotencyKey({}, undefined, 'idempotency_key')).toBeUndefined();
  });

  it('reads Idempotency-Key and its alias X-Idempotency-Key', () => {
    expect(extractIdempotencyKey({ 'idempotency-key': 'order-1' }, undefined)).toBe('order-1');
    expect(extractIdempotencyKey({ 'x-idempotency-key': 'order-2' }, undefined)).toBe('order-2');
  });

  it('reads the body field a route declared, and only then', () => {
    expect(extractIdempotencyKey({}, { idempotency_key: 'from-body' }, 'idempotency_key')).toBe('from-body');
    expect(extractIdempotencyKey({}, { idempotency_key: 'from-body' })).toBeUndefined();
    expect(extractIdempotencyKey({}, { idempotency_key: null }, 'idempotency_key')).toBeUndefined();
    expect(extractIdempotencyKey({}, ['idempotency_key'], 'idempotency_key')).toBeUndefined();
  });

  it('accepts the same value sent in several places', () => {
    const headers = { 'idempotency-key': 'same', 'x-idempotency-key': 'same' };
    expect(extractIdempotencyKey(headers, { idempotency_key: 'same' }, 'idempotency_key')).toBe('same');
  });

  it.each([
    [{ 'idempotency-key': 'a', 'x-idempotency-key': 'b' }, {}, ['Idempotency-Key', 'X-Idempotency-Key']],
    [{ 'idempotency-key': 'a' }, { idempotency_key: 'b' }, ['Idempotency-Key', 'idempotency_key']],
    [{ 'x-idempotency-key': 'a' }, { idempotency_key: 'b' }, ['X-Idempotency-Key', 'idempotency_key']],
  ])('refuses two different values (%j, body %j) with validation_error naming both', (headers, body, fields) => {
    const error = refusal(() => extractIdempotencyKey(headers, body, 'idempotency_key'));
    expect(error.code).toBe('validation_error');
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual([...fields].sort());
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['holding a tab', 'a\tb'],
    ['holding DEL', 'a\x7fb'],
    ['holding a non-ASCII character', 'naïve'],
  ])('refuses a header key that is %s', (_label, key) => {
    const error = refusal(() => extractIdempotencyKey({ 'idempotency-key': key }, undefined));
    expect(error.code).toBe('validation_error');
    expect(error.fieldErrors).toEqual({ 'Idempotency-Key': [expect.any(String)] });
  });

  it('refuses a body key that is not a string', () => {
    const error = refusal(() => extractIdempotencyKey({}, { idempotency_key: 42 }, 'idempotency_key'));
    expect(error.fieldErrors).toEqual({ idempotency_key: ['must be a string'] });
  });

  it('refuses a header sent twice (arriving as a list)', () => {
    const error = refusal(() => extractIdempotencyKey({ 'x-idempotency-key': ['a', 'a'] } as unknown as Record<string, string>, undefined));
    expect(error.fieldErrors).toEqual({ 'X-Idempotency-Key': ['must be a string'] });
  });

  it('accepts 255 printable characters, from space to tilde', () => {
    const key = ` ${'~'.repeat(253)}!`;
    expect(extractIdempotencyKey({ 'idempotency-key': key }, undefined)).toBe(key);
  });
});
