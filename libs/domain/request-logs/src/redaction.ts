import { isStorableText, toStorableCharacters } from '@gateway/platform';

/** What every sensitive value is replaced with before a body is stored. */
export const REDACTED = '[REDACTED]';

/** Replaces whatever lies below this nesting depth; it could not be inspected cheaply and safely. */
export const TOO_DEEP = '[TRUNCATED: nested too deeply]';

/**
 * Deeper than any body a real integration sends; bounds recursion so a hostile body of
 * `[[[[…]]]]` cannot overflow the stack.
 */
export const MAX_REDACTION_DEPTH = 32;

/** Field names whose values are never stored. */
const SENSITIVE_NAMES = [
  'card_number',
  'cvv',
  'cvv2',
  'cvc',
  'security_code',
  'pin',
  'password',
  'passphrase',
  'authorization_code',
  'account_number',
  'secret',
  'api_key',
  'private_key',
  'token',
  'otp',
  'bvn',
];

/**
 * Keys compared after normalisation (lower case, separators removed), so `card_number`,
 * `Card-Number` and `cardNumber` are one and the same key.
 */
const SENSITIVE_KEYS = new Set(SENSITIVE_NAMES.map(normaliseKey));

/** Any key containing one of these (`clientSecret`, `new_password`, `X-Api-Token`, …). */
const SENSITIVE_KEY_PARTS = ['secret', 'password', 'token'];

/**
 * The same names as word sequences, also matched as whole words inside a longer key
 * (`bank_account_number`, `cardPin`, `otp_code`), but never inside a word (`shipping`, `opinion`).
 */
const SENSITIVE_WORD_SEQUENCES = SENSITIVE_NAMES.map((name) => name.split('_'));

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function containsSequence(words: string[], sequence: string[]): boolean {
  for (let start = 0; start + sequence.length <= words.length; start++) {
    if (sequence.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}

/** What a body's key becomes in the log: whether its value is hidden, and the key as stored. */
interface KeyVerdict {
  sensitive: boolean;
  stored: string;
}

/**
 * Verdicts for keys seen before: an API's bodies use the same few hundred keys over and over, and
 * this runs for every key of every logged body. Bounded, so keys a client invents cannot grow it.
 */
const verdicts = new Map<string, KeyVerdict>();
const MAX_REMEMBERED_KEYS = 10_000;

function keyVerdict(key: string): KeyVerdict {
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = { sensitive: judgeKey(key), stored: toStorableText(key) };
  if (verdicts.size < MAX_REMEMBERED_KEYS) verdicts.set(key, verdict);
  return verdict;
}

export function isSensitiveKey(key: string): boolean {
  return keyVerdict(key).sensitive;
}

function judgeKey(key: string): boolean {
  const normalised = normaliseKey(key);
  if (SENSITIVE_KEYS.has(normalised) || SENSITIVE_KEY_PARTS.some((part) => normalised.includes(part))) return true;
  const words = keyWords(key);
  return words.length > 1 && SENSITIVE_WORD_SEQUENCES.some((sequence) => containsSequence(words, sequence));
}

/**
 * Returns a parsed JSON value in which the value of every sensitive key, at any depth and inside
 * arrays, is `[REDACTED]` — whatever its type (an object under `secret` is hidden whole) — and
 * every string and key has passed toStorableText. The input is never modified: an object or array
 * in which something changes is copied, and one in which nothing does is returned as it is, so a
 * body with nothing to hide comes back identical (`===`) to the one given.
 *
 * `rewrite.needed` is set when the value cannot be stored as the text it was parsed from although
 * nothing in it changed: a number past 2^53 holds digits in the text that the parsed number lost
 * (and PostgreSQL would keep them all), so the body must be stored as the API read it, every
 * stored digit checked.
 */
export function redactSensitive(value: unknown, rewrite: { needed: boolean } = { needed: false }, depth = 0): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (typeof value === 'number') {
    if (Math.abs(value) > Number.MAX_SAFE_INTEGER) rewrite.needed = true;
    return containsCardNumber(String(value)) ? REDACTED : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_REDACTION_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return redactItems(value, rewrite, depth);
  return redactEntries(value as Record<string, unknown>, rewrite, depth);
}

function redactItems(items: unknown[], rewrite: { needed: boolean }, depth: number): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = redactSensitive(items[i], rewrite, depth + 1);
    if (copy === undefined && item !== items[i]) copy = items.slice(0, i);
    copy?.push(item);
  }
  return copy ?? items;
}

function redactEntries(entries: Record<string, unknown>, rewrite: { needed: boolean }, depth: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in entries) {
    const verdict = keyVerdict(key);
    const storedKey = verdict.stored;
    const item = verdict.sensitive ? REDACTED : redactSensitive(entries[key], rewrite, depth + 1);
    if (copy === undefined && (storedKey !== key || item !== entries[key])) {
      // The first change: the entries before this one are unchanged, and copied as they are.
      copy = {};
      for (const earlier in entries) {
        if (earlier === key) break;
        defineEntry(copy, earlier, entries[earlier]);
      }
    }
    if (copy !== undefined) defineEntry(copy, storedKey, item);
  }
  return copy ?? entries;
}

/** Assigning "__proto__" would set the copy's prototype: that one key is defined instead. */
function defineEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A secret API key anywhere in a text: pasted into metadata, a note, or a URL path. */
const SECRET_API_KEY = /sk_(?:test|live)_[A-Za-z0-9_-]{20,}/g;
/** `sk_test_` and 20 characters: a shorter text cannot hold a secret key. */
const SHORTEST_SECRET_API_KEY = 28;

/**
 * A card number anywhere in a text — a merchant's `"card": "4084…"`, a note, a JSON number: 13–19
 * digits in a row or in groups of four (4-4-4-4…, 4-6-5) separated by a space or a hyphen, starting
 * 2–6 (the ISO/IEC 7812 banking and financial industries), not part of a longer word, number or
 * identifier (a gateway reference such as `CUS_` + 16 hex digits is now and then all digits),
 * not after `+` (a phone number) or `.` (a decimal fraction). Masked when it passes the Luhn check.
 */
const CARD_NUMBER = /(?<![0-9A-Za-z_+.])[2-6](?:\d{12,18}|\d{3}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{3}([ -])\d{6}\2\d{4,5})(?![0-9A-Za-z_])/g;

/** A first digit and 12 more: a shorter text cannot hold a card number. */
const SHORTEST_CARD_NUMBER = 13;

function passesLuhn(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, '');
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    total += digit;
  }
  return total % 10 === 0;
}

/** Whether `text` holds a card number toStorableText would mask. */
export function containsCardNumber(text: string): boolean {
  if (text.length < SHORTEST_CARD_NUMBER || text.search(CARD_NUMBER) === -1) return false;
  for (const match of text.matchAll(CARD_NUMBER)) if (passesLuhn(match[0])) return true;
  return false;
}

/**
 * Every text stored in a log row passes here. Secret API keys and card numbers are masked
 * wherever they appear. PostgreSQL refuses NUL characters (in `text` and `jsonb`) and lone UTF-16
 * surrogates (which JSON.stringify writes as `\udXXX` escapes `jsonb` rejects): one such string
 * would fail a whole batch, so they become U+FFFD.
 */
export function toStorableText(text: string): string {
  // Nearly every text has nothing to mask: most are cleared by one search instead of three rewrites.
  if (!needsMasking(text)) return text;
  return toStorableCharacters(text)
    .replace(SECRET_API_KEY, REDACTED)
    .replace(CARD_NUMBER, (candidate) => (passesLuhn(candidate) ? REDACTED : candidate));
}

/** Whether toStorableText would change the text (see it for what it masks and replaces). */
function needsMasking(text: string): boolean {
  if (!MAY_NEED_MASKING.test(text)) return false;
  return !isStorableText(text) || (text.length >= SHORTEST_SECRET_API_KEY && text.search(SECRET_API_KEY) !== -1) || containsCardNumber(text);
}

/**
 * One search that clears nearly every text: what toStorableText replaces needs a NUL or a
 * surrogate, a secret key's prefix, or (a card number) four digits in a row.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL refuses
const MAY_NEED_MASKING = /[\u0000\ud800-\udfff]|sk_(?:test|live)_|\d{4}/;
