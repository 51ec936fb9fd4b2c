import { DomainError } from '../errors';
import { decodeCursor, encodeCursor, newestFirst } from './cursor';
import { defineCursor } from './cursor-codec';
import { defineKeyset } from './keyset';

const ID = '0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a11';
const bySeq = defineKeyset(defineCursor({ seq: 'bigint' }), { seq: 'seq' });

/** A `bind` like the repositories' own: each value becomes the next positional placeholder. */
function binder(first = 1): { bind: (value: unknown) => string; values: unknown[] } {
  const values: unknown[] = [];
  return { values, bind: (value) => (values.push(value), `$${first + values.length - 1}`) };
}

describe('keyset pages', () => {
  describe('raw SQL', () => {
    it('asks for one row more than the page on the first page, with no condition', () => {
      const { bind, values } = binder(3);
      expect(newestFirst.page({ limit: 20 }).sql(bind)).toEqual({ where: null, orderBy: 'created_at DESC, id DESC', limit: '$3' });
      expect(values).toEqual([21]);
    });

    it('continues strictly after the cursor position, in (created_at, id) order, columns qualified by the alias', () => {
      const { bind, values } = binder();
      const cursor = encodeCursor({ createdAt: '2025-03-04T05:06:07.123456Z', id: ID });
      expect(newestFirst.page({ limit: 2, cursor }).sql(bind, 'r')).toEqual({
        where: '(r.created_at, r.id) < ($1, $2)',
        orderBy: 'r.created_at DESC, r.id DESC',
        limit: '$3',
      });
      expect(values).toEqual(['2025-03-04T05:06:07.123456Z', ID, 3]);
    });

    it('binds a sequence position as exact text', () => {
      const { bind, values } = binder();
      const cursor = bySeq.codec.encode({ seq: 2n ** 63n - 1n });
      expect(bySeq.page({ limit: 5, cursor }).sql(bind)).toEqual({ where: 'seq < $1', orderBy: 'seq DESC', limit: '$2' });
      expect(values).toEqual(['9223372036854775807', 6]);
    });
  });

  describe('the cursor', () => {
    it('is refused when this list did not issue it, before any query is built', () => {
      expect(() => newestFirst.page({ limit: 2, cursor: 'not-a-cursor' })).toThrow(DomainError);
      expect(() => newestFirst.page({ limit: 2, cursor: bySeq.codec.encode({ seq: 12n }) })).toThrow(
        expect.objectContaining({ code: 'validation_error', fieldErrors: { cursor: [expect.any(String)] } }),
      );
      expect(() => bySeq.page({ limit: 2, cursor: encodeCursor({ createdAt: new Date(0), id: ID }) })).toThrow(DomainError);
    });

    it('issued before this helper existed still reads (the wire format is the codec’s, unchanged)', () => {
      // base64url of "2025-01-02T03:04:05.678Z|<id>", as the lists have issued since cursors were unified.
      const issued = Buffer.from(`2025-01-02T03:04:05.678Z|${ID}`, 'utf8').toString('base64url');
      const { bind, values } = binder();
      expect(newestFirst.page({ limit: 1, cursor: issued }).sql(bind).where).toBe('(created_at, id) < ($1, $2)');
      expect(values.slice(0, 2)).toEqual(['2025-01-02T03:04:05.678Z', ID]);
    });
  });

  describe('toPage', () => {
    const rows = [0, 1, 2].map((i) => ({ id: `0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a1${i}`, createdAt: new Date(Date.UTC(2025, 0, 3 - i)), name: `row ${i}` }));

    it('shows `limit` rows and gives the last one shown as the next cursor when a further row was read', () => {
      const page = newestFirst.page({ limit: 2 }).toPage(rows, (row) => row.name);
      expect(page).toEqual({ items: ['row 0', 'row 1'], nextCursor: expect.any(String), hasMore: true, limit: 2 });
      expect(decodeCursor(page.nextCursor as string)).toEqual({ createdAt: '2025-01-02T00:00:00.000Z', id: rows[1].id });
    });

    it('has no next cursor on the last page, full or not, nor on an empty one', () => {
      expect(newestFirst.page({ limit: 3 }).toPage(rows, (row) => row.name)).toEqual({ items: ['row 0', 'row 1', 'row 2'], nextCursor: null, hasMore: false, limit: 3 });
      expect(newestFirst.page({ limit: 5 }).toPage([], (row) => row)).toEqual({ items: [], nextCursor: null, hasMore: false, limit: 5 });
    });

    it('reads the position from other columns when told how (a microsecond timestamp kept as text)', () => {
      const raw = [
        { id: ID, cursor_at: '2025-03-04T05:06:07.123456Z' },
        { id: ID, cursor_at: '2025-03-04T05:06:07.000001Z' },
      ];
      const page = newestFirst.page({ limit: 1 }).toPage(raw, (row) => row.id, (row) => ({ createdAt: row.cursor_at, id: row.id }));
      expect(decodeCursor(page.nextCursor as string)).toEqual({ createdAt: '2025-03-04T05:06:07.123456Z', id: ID });
    });

    it('pages a sequence by its last seq', () => {
      const page = bySeq.page({ limit: 2 }).toPage([{ seq: 9n }, { seq: 7n }, { seq: 4n }], (row) => Number(row.seq));
      expect(page.items).toEqual([9, 7]);
      expect(bySeq.codec.decode(page.nextCursor as string)).toEqual({ seq: 7n });
    });
  });
});
