import { sha256Hex } from '@gateway/platform';

/**
 * Serialises a parsed JSON value with object keys sorted recursively (by UTF-16 code units, as
 * Array.prototype.sort compares) and no whitespace; arrays keep their order. Two bodies that differ
 * only in key order or spacing give the same text, so a retry whose client re-serialised the same
 * request is not mistaken for a different one.
 *
 * Follows JSON.stringify for everything else: `undefined` members are left out (and become `null`
 * inside arrays), `toJSON` is honoured (dates become ISO strings), non-finite numbers become `null`.
 *
 * Only stable, which is all a fingerprint needs: it is hashed, never sent. Bytes a receiver must
 * re-create (signed webhook bodies) come from the webhooks capability's `pythonCompatibleJson`.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value)) ?? 'null';
}

/** SHA-256 (hex) of the stable JSON: what a claim stores to recognise the same request again. */
export function requestFingerprint(value: unknown): string {
  return sha256Hex(stableJson(value));
}

function sortKeysDeep(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return sortKeysDeep(withJson.toJSON());
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  // A null-prototype object, so a body key such as "__proto__" stays an ordinary member.
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
