import { MAX_STORED_BODY_BYTES, storableBody } from './stored-body';

describe('storableBody', () => {
  it('stores a JSON body with its sensitive values redacted', () => {
    const body = JSON.stringify({ amount: 100, card: { number_masked: '5061…1111', cvv: '123' } });
    expect(JSON.parse(storableBody(body) as string)).toEqual({ amount: 100, card: { number_masked: '5061…1111', cvv: '[REDACTED]' } });
  });

  it('accepts the body as bytes', () => {
    expect(storableBody(Buffer.from('{"pin":"1234","ok":true}'))).toBe('{"pin":"[REDACTED]","ok":true}');
  });

  it('stores null for no body, an empty body and a body that is not JSON', () => {
    expect(storableBody(undefined)).toBeNull();
    expect(storableBody(null)).toBeNull();
    expect(storableBody('')).toBeNull();
    expect(storableBody('card_number=5061000011112222&cvv=123')).toBeNull();
    expect(storableBody('{"password": "hunter2",')).toBeNull();
  });

  it('keeps a body of exactly 64 KiB', () => {
    const prefix = '{"note":"';
    const body = `${prefix}${'x'.repeat(MAX_STORED_BODY_BYTES - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(MAX_STORED_BODY_BYTES);
    expect(JSON.parse(storableBody(body) as string)).toEqual({ note: expect.any(String) });
  });

  it('stores only a truncation marker with the size for a body over 64 KiB, counting bytes not characters', () => {
    // 22,000 three-byte characters: under the limit in characters, over it in bytes.
    const body = JSON.stringify({ password: 'hunter2-canary', note: '€'.repeat(22_000) });
    expect(body.length).toBeLessThan(MAX_STORED_BODY_BYTES);
    const stored = storableBody(body) as string;
    expect(JSON.parse(stored)).toEqual({ truncated: true, size_bytes: Buffer.byteLength(body) });
    expect(stored).not.toContain('hunter2-canary');
  });

  it('stores JSON scalars too (redaction has nothing to do)', () => {
    expect(storableBody('"text"')).toBe('"text"');
    expect(storableBody('12')).toBe('12');
  });

  it('stores a body with nothing to redact as it came, and rewrites one that needs it', () => {
    const clean = '{"id": "cus_1", "items": [{"note": "ok"}], "big": 12345678901234567890}';
    expect(storableBody(clean)).toBe(clean);
    // A secret key disguised with a \u escape, a NUL, and a sensitive key deep in an array.
    expect(storableBody('{"note":"\\u0073k_test_abcdefghijklmnopqrstuvwxyz"}')).toBe('{"note":"[REDACTED]"}');
    expect(storableBody('{"note":"a\\u0000b"}')).toBe('{"note":"a\ufffdb"}');
    expect(storableBody('{"list":[{"x":{"clientSecret":"s"}}]}')).toBe('{"list":[{"x":{"clientSecret":"[REDACTED]"}}]}');
    // A card number under an ordinary key, as text and as a number.
    expect(storableBody('{"card":"4084084084084081","pan":5399838383838381}')).toBe('{"card":"[REDACTED]","pan":"[REDACTED]"}');
  });

  it('still cuts off nesting too deep to inspect', () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    expect(storableBody(deep)).not.toBe(deep);
    expect(storableBody(deep)).toContain('TRUNCATED');
  });
});
