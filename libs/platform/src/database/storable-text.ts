/**
 * Text PostgreSQL refuses in `text` and `jsonb` columns: the NUL character, and UTF-16 surrogates
 * without their pair (not Unicode; JSON writes them as `\udXXX` escapes that `jsonb` rejects).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function isStorableText(text: string): boolean {
  // search() ignores the global flag's lastIndex, so the shared pattern keeps no state between calls.
  return text.search(UNSTORABLE) === -1;
}

/** The text with each unstorable character replaced (by U+FFFD, the replacement character). */
export function toStorableCharacters(text: string, replacement = '\ufffd'): string {
  return text.replace(UNSTORABLE, replacement);
}
