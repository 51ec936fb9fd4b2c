import { TEST_CARDS } from '@gateway/provider-sim';

/** One secret found in clear: where, what kind, and a masked excerpt (a report must not repeat the secret). */
export interface Finding {
  place: string;
  kind: string;
  excerpt: string;
}

/**
 * Secrets the caller knows were pushed through the gateway (API keys, signing and TOTP secrets,
 * passwords): each must appear nowhere in clear, whatever its form. Card numbers need no list:
 * every one is found by the card-number rule.
 */
export type KnownSecrets = readonly string[];

/**
 * Card-number candidates: 13–19 digits in a row, or in groups of four (4-4-4-4…, 4-6-5) separated by
 * one space or hyphen, not part of a longer word, number or identifier (the gateway's own
 * references, `CUS_` + 16 hex digits, are now and then all digits, and one such run in ten passes
 * Luhn). Not after `+` (an E.164 phone number) or `.` (the fraction of a decimal number).
 */
const CARD_CANDIDATE = /(?<![0-9A-Za-z_+.])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -])\d{6}\2\d{4,5})(?![0-9A-Za-z_])/g;

/** Payment cards start with 2–6 (ISO/IEC 7812 major industry identifiers of banking and finance). */
const CARD_MAJOR_INDUSTRY = /^[2-6]/;

const SECRET_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'secret API key', pattern: /sk_(?:test|live)_[A-Za-z0-9_-]{12,}/g },
  { kind: 'webhook signing secret', pattern: /whsec_[A-Za-z0-9_-]{16,}/g },
  { kind: 'otpauth URI', pattern: /otpauth:\/\/[^\s"']*/gi },
  // Base32 (RFC 4648) as authenticator apps take it: 16+ characters, at least one digit, alone.
  { kind: 'TOTP secret (base32)', pattern: /(?<![A-Za-z0-9_-])(?=[A-Z2-7]*[2-7])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9_-])/g },
];

/** The simulator's documented test cards: a merchant may put them in its own metadata. */
export const TEST_CARD_NUMBERS: ReadonlySet<string> = new Set(TEST_CARDS.map((card) => card.number));

export function luhnValid(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  }
  return total % 10 === 0;
}

/** `4084084084084081` → `408408…4081`: enough to find it, not enough to use it. */
export function masked(secret: string): string {
  return secret.length <= 10 ? `${secret.slice(0, 2)}…` : `${secret.slice(0, 6)}…${secret.slice(-4)}`;
}

/**
 * Every secret in `text`. `merchantMetadata`: the text is (inside) the merchant's own metadata,
 * which the gateway keeps as sent — a documented test card is allowed there, nothing else is.
 */
export function secretsIn(text: string, place: string, merchantMetadata: boolean, known: KnownSecrets = []): Finding[] {
  const findings: Finding[] = [];
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19 || !CARD_MAJOR_INDUSTRY.test(digits) || !luhnValid(digits)) continue;
    if (merchantMetadata && TEST_CARD_NUMBERS.has(digits)) continue;
    findings.push({ place, kind: merchantMetadata ? 'card number (in merchant metadata, not a test card)' : 'card number', excerpt: masked(digits) });
  }
  for (const { kind, pattern } of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) findings.push({ place, kind, excerpt: masked(match[0]) });
  }
  for (const secret of known) {
    if (text.includes(secret)) findings.push({ place, kind: 'a secret the test pushed', excerpt: masked(secret) });
  }
  return findings;
}

/**
 * A prefilter for PostgreSQL (POSIX regular expression): every text `secretsIn` could report a
 * secret in matches it, so only those rows are read.
 */
export function sqlPrefilter(known: KnownSecrets): string {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    '[0-9]{13}',
    '[0-9]{4}[ -][0-9]{4}[ -][0-9]{4}',
    '[0-9]{4}[ -][0-9]{6}[ -][0-9]{4}',
    'sk_(test|live)_',
    'whsec_',
    '[oO][tT][pP][aA][uU][tT][hH]:',
    '[A-Z2-7]{16}',
    ...known.map(escape),
  ].join('|');
}
