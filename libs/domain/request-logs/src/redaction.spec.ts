import fc from 'fast-check';
import { isSensitiveKey, MAX_REDACTION_DEPTH, REDACTED, redactSensitive, TOO_DEEP, toStorableText } from './redaction';

const CANARY = 'CANARY-5061-4321-0000-1111';

function stored(value: unknown): string {
  return JSON.stringify(redactSensitive(value));
}

describe('redactSensitive', () => {
  it('hides the listed keys at the top level and keeps everything else', () => {
    const body = {
      card_number: CANARY,
      cvv: CANARY,
      cvc: CANARY,
      pin: CANARY,
      password: CANARY,
      authorization_code: CANARY,
      account_number: CANARY,
      secret: CANARY,
      api_key: CANARY,
      token: CANARY,
      otp: CANARY,
      bvn: CANARY,
      amount: 5000.5,
      email: 'ada@example.com',
    };
    expect(redactSensitive(body)).toEqual({
      card_number: REDACTED,
      cvv: REDACTED,
      cvc: REDACTED,
      pin: REDACTED,
      password: REDACTED,
      authorization_code: REDACTED,
      account_number: REDACTED,
      secret: REDACTED,
      api_key: REDACTED,
      token: REDACTED,
      otp: REDACTED,
      bvn: REDACTED,
      amount: 5000.5,
      email: 'ada@example.com',
    });
  });

  it('finds canaries deep in nested objects, arrays of objects and arrays of arrays', () => {
    const body = {
      customer: { profile: { security: { password: CANARY, hint: 'kept' } } },
      cards: [{ card_number: CANARY, last4: '1111' }, { cvv: CANARY }],
      batches: [[{ items: [{ payer: { bvn: CANARY } }] }]],
      metadata: { level1: { level2: { level3: { level4: { otp: CANARY } } } } },
    };
    const text = stored(body);
    expect(text).not.toContain(CANARY);
    expect(text).toContain('"hint":"kept"');
    expect(text).toContain('"last4":"1111"');
  });

  it.each([
    ['Card_Number'],
    ['CARD_NUMBER'],
    ['cardNumber'],
    ['card-number'],
    ['CVV'],
    ['Pin'],
    ['ApiKey'],
    ['api-key'],
    ['clientSecret'],
    ['client_secret'],
    ['webhookSecretKey'],
    ['X-Api-Token'],
    ['refresh_token'],
    ['accessToken'],
    ['new_password'],
    ['PasswordConfirmation'],
    ['AUTHORIZATION_CODE'],
    ['authorizationCode'],
    ['AccountNumber'],
    ['bank_account_number'],
    ['beneficiaryAccountNumber'],
    ['card_pin'],
    ['otp_code'],
    ['customer-bvn'],
    ['cardCvv'],
  ])('treats %s as sensitive whatever its case or separators', (key) => {
    expect(isSensitiveKey(key)).toBe(true);
    expect(stored({ outer: [{ [key]: CANARY }] })).not.toContain(CANARY);
  });

  it.each([['amount'], ['currency'], ['spin_count'], ['pinned'], ['shipping'], ['reference'], ['authorization_url'], ['card_type'], ['opinion'], ['account_name'], ['bank_code']])(
    'keeps the ordinary key %s',
    (key) => {
      expect(isSensitiveKey(key)).toBe(false);
      expect(redactSensitive({ [key]: 'visible' })).toEqual({ [key]: 'visible' });
    },
  );

  it('replaces a sensitive value whatever its type: object, array, number, boolean, null', () => {
    const body = {
      secret: { nested: CANARY, more: [CANARY] },
      tokens: [CANARY, { value: CANARY }],
      pin: 1234,
      cvv: 123,
      otp: null,
      password: true,
    };
    expect(redactSensitive(body)).toEqual({
      secret: REDACTED,
      tokens: REDACTED,
      pin: REDACTED,
      cvv: REDACTED,
      otp: REDACTED,
      password: REDACTED,
    });
  });

  it('masks a secret API key found in any string value or key, and leaves publishable keys', () => {
    const secret = 'sk_test_Q2hhbmdlTWVQbGVhc2UxMjM0NTY3';
    const publishable = 'pk_test_UHVibGlzaGFibGVLZXlGb3JDaGVja291dA';
    const text = stored({ metadata: { notes: [`our key is ${secret}, oops`], [secret]: 1 }, public_key: publishable });
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(8));
    expect(text).toContain('our key is [REDACTED], oops');
    expect(text).toContain(publishable);
  });

  it('masks a card number under any key, as text or as a number, grouped or not, and keeps what only looks like one', () => {
    const card = '4084084084084081';
    const body = {
      card,
      note: `paid with 4084 0840 8408 4081, thanks`,
      metadata: { pan: Number(card), amex: '3782-822463-10005' },
      [card]: 'as a key',
      phone: '+2348012345678',
      sent_at_ms: 1764002700000,
      not_luhn: '4084084084084082',
      reference: 'PAY-4084084084084081a',
      customer_reference: 'CUS_4084084084084081',
      share: 0.4084084084084081,
    };
    expect(redactSensitive(body)).toEqual({
      card: REDACTED,
      note: `paid with ${REDACTED}, thanks`,
      metadata: { pan: REDACTED, amex: REDACTED },
      [REDACTED]: 'as a key',
      phone: '+2348012345678',
      sent_at_ms: 1764002700000,
      not_luhn: '4084084084084082',
      reference: 'PAY-4084084084084081a',
      customer_reference: 'CUS_4084084084084081',
      share: 0.4084084084084081,
    });
  });

  it('does not change the value it was given', () => {
    const body = { card: { card_number: CANARY }, list: [{ cvv: CANARY }] };
    const copy = structuredClone(body);
    redactSensitive(body);
    expect(body).toEqual(copy);
  });

  it('gives back the value it was given when nothing in it needs hiding, and copies only what changes', () => {
    const clean = { amount: 5000, customer: { email: 'a@example.com' }, items: [1, 'two', null] };
    expect(redactSensitive(clean)).toBe(clean);

    const body = { first: 1, customer: { email: 'a@example.com' }, pin: '1234', last: ['4084084084084081', 'x'], after: true };
    const result = redactSensitive(body) as typeof body;
    expect(JSON.stringify(result)).toBe('{"first":1,"customer":{"email":"a@example.com"},"pin":"[REDACTED]","last":["[REDACTED]","x"],"after":true}');
    expect(result.customer).toBe(body.customer);
    expect(body.pin).toBe('1234');
    expect(body.last[0]).toBe('4084084084084081');
  });

  it('asks for the body to be rewritten when a number holds more digits than it can keep, though nothing changed', () => {
    const rewrite = { needed: false };
    const body = { count: 12, big: 12345678901234567000 };
    expect(redactSensitive(body, rewrite)).toBe(body);
    expect(rewrite.needed).toBe(true);
    const small = { needed: false };
    redactSensitive({ count: Number.MAX_SAFE_INTEGER }, small);
    expect(small.needed).toBe(false);
  });

  it('keeps a "__proto__" key as a plain key and still redacts below it', () => {
    const body = JSON.parse(`{"__proto__": {"password": "${CANARY}", "x": 1}}`) as unknown;
    const result = redactSensitive(body) as Record<string, unknown>;
    // An own key, not the result's prototype: that is a plain object prototype, which has none above it.
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(result))).toBeNull();
    expect(JSON.stringify(result)).toBe('{"__proto__":{"password":"[REDACTED]","x":1}}');
  });

  it('cuts off nesting deeper than the limit instead of recursing without bound', () => {
    let deep: unknown = { password: CANARY };
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const text = stored(deep);
    expect(text).not.toContain(CANARY);
    expect(text).toContain(TOO_DEEP);
    expect(text.split('[').length - 1).toBeLessThanOrEqual(MAX_REDACTION_DEPTH + 1);
  });

  it('keeps a value at the deepest inspected level', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_REDACTION_DEPTH; i++) deep = [deep];
    expect(stored(deep)).toContain('leaf');
  });

  it('leaves primitives alone', () => {
    expect(redactSensitive(42)).toBe(42);
    expect(redactSensitive('text')).toBe('text');
    expect(redactSensitive(null)).toBeNull();
    expect(redactSensitive(false)).toBe(false);
  });

  it('replaces NUL characters and lone surrogates that PostgreSQL would refuse, in values and keys', () => {
    const result = redactSensitive({ 'k\u0000': 'a\u0000b', lone: 'x\ud800y', pair: '😀' });
    expect(result).toEqual({ 'k\ufffd': 'a\ufffdb', lone: 'x\ufffdy', pair: '😀' });
    expect(toStorableText('\udc00\ud83d\ude00\ud83d')).toBe('\ufffd😀\ufffd');
  });

  it('never lets a canary under a sensitive key through, wherever the key sits (property)', () => {
    const sensitiveKey = fc.constantFrom('card_number', 'Card_Number', 'cvv', 'CVC', 'pin', 'Password', 'clientSecret', 'X-Api-Token', 'bvn', 'otp', 'account_number', 'api_key', 'authorization_code');
    const plainKey = fc.constantFrom('data', 'items', 'payer', 'metadata', 'card', 'details', 'x');
    // A random path of object keys and array positions leading to the sensitive key.
    const path = fc.array(fc.oneof(plainKey, fc.nat({ max: 3 })), { maxLength: 12 });
    const filler = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(path, sensitiveKey, filler, (steps, key, other) => {
        let value: unknown = { [key]: { deep: CANARY, list: [CANARY] }, other };
        for (const step of [...steps].reverse()) {
          value = typeof step === 'number' ? [...Array<unknown>(step).fill(other), value] : { [step]: value, other };
        }
        expect(stored(value)).not.toContain(CANARY);
      }),
    );
  });
});
