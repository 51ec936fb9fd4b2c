/**
 * How deep a request body may nest objects and arrays, the body itself being level 1. Far more
 * than any request needs (metadata included), and small enough that everything that walks a body
 * recursively — validation, canonical JSON for idempotency and webhook signatures, redaction —
 * stays shallow: a body nested thousands deep used to fail with 500, or be stored and then make
 * every webhook delivery of its event fail.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when JSON text opens more than `maxDepth` objects or arrays inside one another. One pass
 * over the raw text with a counter (no recursion, no parse): brackets inside strings do not count,
 * and the scan stops at the first level too deep. Malformed text is left to the parser to refuse.
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
      if (i === -1) return false;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote ending the string opened at `open` (one not escaped by a backslash), or -1. */
function closingQuote(text: string, open: number): number {
  // indexOf jumps over string contents far faster than a loop over every character.
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}
