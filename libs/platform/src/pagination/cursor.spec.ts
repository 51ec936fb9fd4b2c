import { DomainError } from '../errors';
import { decodeCursor, encodeCursor, toPage } from './cursor';
import { defineCursor } from './cursor-codec';

const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const ID = '0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a11';

function expectRefused(decode: () => unknown): void {
  expect(decode).toThrow(DomainError);
  try {
    decode();
  } catch (error) {
    expect(error).toMatchObject({ code: 'validation_error', fieldErrors: { cursor: [expect.any(String)] } });
  }
}

describe('keyset cursor (created_at, id)', () => {
  // The request log's cursor, which used to be its own codec: microsecond timestamps as text.
  describe('request log positions', () => {
    const position = { createdAt: '2025-03-04T05:06:07.123456Z', id: ID };

    it('round-trips a position', () => {
      expect(decodeCursor(encodeCursor(position))).toEqual(position);
    });

    it('is opaque: URL-safe text that does not show the timestamp or id', () => {
      const cursor = encodeCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(cursor).not.toContain(position.id);
    });

    it.each([
      ['garbage', 'not-a-cursor'],
      ['empty', ''],
      ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
      ['a bad timestamp', Buffer.from('["2025-03-04", "0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a11"]').toString('base64url')],
      ['a bad id', Buffer.from('["2025-03-04T05:06:07.123456Z", "1 OR 1=1"]').toString('base64url')],
    ])('refuses %s with validation_error on the cursor field', (_label, cursor) => {
      expectRefused(() => decodeCursor(cursor));
    });
  });

  it('encodes a Date to the millisecond and gives it back as text PostgreSQL reads exactly', () => {
    const createdAt = new Date('2025-01-02T03:04:05.678Z');
    expect(decodeCursor(encodeCursor({ createdAt, id: ID }))).toEqual({ createdAt: '2025-01-02T03:04:05.678Z', id: ID });
  });

  it('accepts whole seconds, a leap day and the last instant of 9999', () => {
    for (const createdAt of ['2025-01-02T03:04:05Z', '2024-02-29T00:00:00.000Z', '9999-12-31T23:59:59.999999Z', '1970-01-01T00:00:00Z']) {
      expect(decodeCursor(cursorOf(`${createdAt}|${ID}`)).createdAt).toBe(createdAt);
    }
  });

  it.each([
    ['a year before PostgreSQL can store it (JS Date minimum)', `-271821-04-20T00:00:00.000Z|${ID}`],
    ['a six-digit year (JS Date maximum)', `+275760-09-13T00:00:00.000Z|${ID}`],
    ['year 0', `0000-01-01T00:00:00.000Z|${ID}`],
    ['a year before 1970', `1969-12-31T23:59:59.999Z|${ID}`],
    ['month 13', `2025-13-01T00:00:00.000Z|${ID}`],
    ['month 0', `2025-00-01T00:00:00.000Z|${ID}`],
    ['February 30th', `2025-02-30T00:00:00.000Z|${ID}`],
    ['February 29th of a common year', `2025-02-29T00:00:00.000Z|${ID}`],
    ['day 0', `2025-01-00T00:00:00.000Z|${ID}`],
    ['hour 24', `2025-01-01T24:00:00.000Z|${ID}`],
    ['minute 60', `2025-01-01T00:60:00.000Z|${ID}`],
    ['a leap second', `2025-06-30T23:59:60.000Z|${ID}`],
    ['seven fractional digits', `2025-01-01T00:00:00.1234567Z|${ID}`],
    ['a time zone offset', `2025-01-01T00:00:00.000+01:00|${ID}`],
    ['a date without time', `2025-01-01|${ID}`],
    ['words PostgreSQL would read as a date', `infinity|${ID}`],
    ['a uuid of dashes', '2025-01-01T00:00:00.000Z|------------------------------------'],
    ['a uuid with non-hex digits', '2025-01-01T00:00:00.000Z|zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
    ['a uuid without dashes', '2025-01-01T00:00:00.000Z|0b8c0f4e5a364d439d5e0f3c4c1f2a11'],
    ['a uuid with a trailing character', `2025-01-01T00:00:00.000Z|${ID}x`],
    ['SQL in the id', "2025-01-01T00:00:00.000Z|' OR 1=1 --"],
    ['a field too many', `2025-01-01T00:00:00.000Z|${ID}|${ID}`],
    ['a field too few', '2025-01-01T00:00:00.000Z'],
    ['the fields swapped', `${ID}|2025-01-01T00:00:00.000Z`],
    ['a NUL', `2025-01-01T00:00:00.000Z|${ID}\u0000`],
  ])('refuses %s', (_label, text) => {
    expectRefused(() => decodeCursor(cursorOf(text)));
  });

  it.each([
    ['padding', `${cursorOf(`2025-01-01T00:00:00.000Z|${ID}`)}=`],
    ['standard base64 characters', cursorOf(`2025-01-01T00:00:00.000Z|${ID}`).replace(/_/g, '/').replace(/-/g, '+') + '+'],
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7c]).toString('base64url')],
    ['an overlong cursor', 'A'.repeat(400)],
  ])('refuses a cursor with %s', (_label, cursor) => {
    expectRefused(() => decodeCursor(cursor));
  });

  it('toPage gives the last shown row as the next cursor, and none on the last page', () => {
    const rows = [0, 1, 2].map((i) => ({ id: `0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a1${i}`, createdAt: new Date(Date.UTC(2025, 0, 3 - i)) }));
    const page = toPage(rows, 2, (row) => row.id);
    expect(page).toMatchObject({ items: [rows[0].id, rows[1].id], hasMore: true, limit: 2 });
    expect(decodeCursor(page.nextCursor as string)).toEqual({ createdAt: '2025-01-02T00:00:00.000Z', id: rows[1].id });
    expect(toPage(rows, 3, (row) => row.id)).toMatchObject({ nextCursor: null, hasMore: false });
  });

  it('refuses to encode a position that could not be read back (a bug, not a client error)', () => {
    expect(() => encodeCursor({ createdAt: new Date(Date.UTC(10_000, 0, 1)), id: ID })).toThrow(/cannot hold/);
    expect(() => encodeCursor({ createdAt: new Date(0), id: 'not-a-uuid' })).toThrow(/cannot hold/);
  });
});

describe('keyset cursor (bigint sequence)', () => {
  const sequenceCursor = defineCursor({ seq: 'bigint' });

  it('round-trips the largest bigint', () => {
    const seq = 2n ** 63n - 1n;
    expect(sequenceCursor.decode(sequenceCursor.encode({ seq }))).toEqual({ seq });
  });

  it.each([
    ['one past the bigint range', '9223372036854775808'],
    ['nineteen nines', '9999999999999999999'],
    ['twenty digits', '10000000000000000000'],
    ['a negative number', '-1'],
    ['a leading zero', '012'],
    ['a decimal', '1.5'],
    ['an exponent', '1e3'],
    ['spaces', ' 12'],
    ['the old "seq:" form', 'seq:12'],
    ['a (created_at, id) position', `2025-01-01T00:00:00.000Z|${ID}`],
  ])('refuses %s', (_label, text) => {
    expectRefused(() => sequenceCursor.decode(cursorOf(text)));
  });

  it("is not another list's cursor: a sequence cursor is refused where (created_at, id) is expected", () => {
    expectRefused(() => decodeCursor(sequenceCursor.encode({ seq: 12n })));
  });
});
