import fc from 'fast-check';
import { redactSensitive } from './redaction';
import { MAX_STORED_BODY_BYTES, storableBody } from './stored-body';

const CARD = '4084084084084081';
const SECRET_KEY = `sk_live_${'a1B2'.repeat(6)}`;

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
    const clean = '{"id": "cus_1", "items": [{"note": "ok"}], "big": 9007199254740991, "small": 1.5e-7}';
    expect(storableBody(clean)).toBe(clean);
    // A secret key disguised with a \u escape, a NUL, and a sensitive key deep in an array.
    expect(storableBody('{"note":"\\u0073k_test_abcdefghijklmnopqrstuvwxyz"}')).toBe('{"note":"[REDACTED]"}');
    expect(storableBody('{"note":"a\\u0000b"}')).toBe('{"note":"a\ufffdb"}');
    expect(storableBody('{"list":[{"x":{"clientSecret":"s"}}]}')).toBe('{"list":[{"x":{"clientSecret":"[REDACTED]"}}]}');
    // A card number under an ordinary key, as text and as a number.
    expect(storableBody('{"card":"4084084084084081","pan":5399838383838381}')).toBe('{"card":"[REDACTED]","pan":"[REDACTED]"}');
  });

  it('masks a card number that follows an escape, and one written as a number with an exponent', () => {
    // In the JSON text the card follows the letter of `\n` or `\t`; in the value, a line break or a tab.
    expect(JSON.parse(storableBody(JSON.stringify({ note: `line one\n${CARD}` })) as string)).toEqual({ note: 'line one\n[REDACTED]' });
    expect(JSON.parse(storableBody(JSON.stringify({ note: `tab\t${CARD}` })) as string)).toEqual({ note: 'tab\t[REDACTED]' });
    // PostgreSQL stores 4.084084084084081e15 as 4084084084084081.
    expect(storableBody('{"pan":4.084084084084081e15}')).toBe('{"pan":"[REDACTED]"}');
  });

  it('stores a number past 2^53 as the API read it, so that no digit goes unchecked', () => {
    // 5061990000000000454 (a 19-digit card number, Luhn and all) reads as 5061990000000000000.
    expect(storableBody('{"pan":5061990000000000454,"big":12345678901234567890}')).toBe('{"pan":5061990000000000000,"big":12345678901234567000}');
  });

  it('stores what redactSensitive makes of the body, whether it keeps the text or rewrites it (property)', () => {
    // Strings built from what masking looks for, next to what can hide it in the JSON text.
    const piece = fc.constantFrom(CARD, '5399 8383 8383 8381', SECRET_KEY, '\n', '\t', '\r', '"', '\\', '/', ' ', '-', '+', '.', 'x', '7', '\u0000', '\ud800', '\udc00', 'é', '😀');
    const text = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
    const key = fc.oneof(text, fc.constantFrom('note', 'authorization_code', 'cardPin', 'metadata', '__proto__', '12'));
    const number = fc.oneof(fc.constantFrom(4084084084084081, 5399838383838381, -4084084084084081, 1e21), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, number, fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
    }));
    fc.assert(
      fc.property(value, (body) => {
        const bodyText = JSON.stringify(body);
        const expected = JSON.parse(JSON.stringify(redactSensitive(JSON.parse(bodyText))));
        expect(JSON.parse(storableBody(bodyText) as string)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps no card number or secret key, whatever surrounds it in the body (property)', () => {
    // Pieces that each stand apart (joined by spaces), so every card number and key in them must go.
    const piece = fc.constantFrom(CARD, '5399 8383 8383 8381', SECRET_KEY, `\n${CARD}`, `\t${SECRET_KEY}`, `"${CARD}"`, `\\${CARD}`, 'note', '\u0000', '\ud800', '😀');
    const text = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join(' '));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.constant(Number(CARD)), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(text, tie('value'), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(value, (body) => {
        const stored = JSON.stringify(JSON.parse(storableBody(JSON.stringify(body)) as string));
        for (const secret of [CARD, '5399 8383 8383 8381', SECRET_KEY]) expect(stored).not.toContain(secret);
      }),
      { numRuns: 1000 },
    );
  });

  it('stores a response read from the value it was serialized from exactly as one read from its text (property)', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom(CARD, '5399 8383 8383 8381', SECRET_KEY, `line\n${CARD}`, '\u0000', '\ud800'));
    const key = fc.oneof(text, fc.constantFrom('authorization_code', 'cardPin', 'metadata', 'toJSON', '__proto__'));
    // Values JSON writes as they are, and some it does not (Dates, undefined, NaN, a class, toJSON).
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double(),
        fc.constantFrom(4084084084084081, 2 ** 60, true, null, undefined, new Date('2026-12-04T23:51:07.123Z'), new Date(Number.NaN), new Written('4084084084084081')),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (response) => {
        const body = JSON.stringify(response);
        if (body === undefined) return;
        expect(storableBody(body, response)).toBe(storableBody(body));
      }),
      { numRuns: 3000 },
    );
  });

  it('still cuts off nesting too deep to inspect', () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    expect(storableBody(deep)).not.toBe(deep);
    expect(storableBody(deep)).toContain('TRUNCATED');
  });
});

/** A value with its own JSON: the log must store what was written, not what the object holds. */
class Written {
  constructor(private readonly secret: string) {}

  toJSON(): string {
    return `written ${this.secret.length}`;
  }
}
