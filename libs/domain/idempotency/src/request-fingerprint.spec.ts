import { stableJson, requestFingerprint } from './request-fingerprint';

describe('stableJson', () => {
  it('sorts object keys at every depth and drops whitespace', () => {
    expect(stableJson(JSON.parse('{ "b": 1, "a": { "z": [ {"y": 2, "x": 1} ], "c": null } }'))).toBe(
      '{"a":{"c":null,"z":[{"x":1,"y":2}]},"b":1}',
    );
  });

  it('keeps array order: reordered items are a different request', () => {
    expect(stableJson([2, 1])).toBe('[2,1]');
    expect(requestFingerprint({ items: [1, 2] })).not.toBe(requestFingerprint({ items: [2, 1] }));
  });

  it('gives the same fingerprint for the same body serialised with a different key order', () => {
    const first = JSON.parse('{"email":"a@example.com","metadata":{"tier":"gold","id":7}}') as unknown;
    const second = JSON.parse('{"metadata":{"id":7,"tier":"gold"},"email":"a@example.com"}') as unknown;
    expect(requestFingerprint(first)).toBe(requestFingerprint(second));
    expect(requestFingerprint(first)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart bodies that differ in a nested value or in type', () => {
    expect(requestFingerprint({ a: { b: 1 } })).not.toBe(requestFingerprint({ a: { b: 2 } }));
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: '1' }));
  });

  it('treats a missing body as null and leaves out undefined members like JSON.stringify', () => {
    expect(stableJson(undefined)).toBe('null');
    expect(stableJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(stableJson([undefined])).toBe('[null]');
  });

  it('keeps a "__proto__" member as ordinary data', () => {
    const body = JSON.parse('{"b":1,"__proto__":{"x":1}}') as unknown;
    expect(stableJson(body)).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it('escapes strings exactly as JSON.stringify does', () => {
    expect(stableJson({ s: 'line\n"quoted" é 🙂' })).toBe(JSON.stringify({ s: 'line\n"quoted" é 🙂' }));
  });
});
