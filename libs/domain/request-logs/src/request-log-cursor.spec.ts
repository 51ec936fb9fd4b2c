import { DomainError } from '@gateway/platform';
import { decodeCursor, encodeCursor } from './request-log-cursor';

describe('request log cursor', () => {
  const position = { createdAt: '2025-03-04T05:06:07.123456Z', id: '0b8c0f4e-5a36-4d43-9d5e-0f3c4c1f2a11' };

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
    expect(() => decodeCursor(cursor)).toThrow(DomainError);
    try {
      decodeCursor(cursor);
    } catch (error) {
      expect(error).toMatchObject({ code: 'validation_error', fieldErrors: { cursor: [expect.any(String)] } });
    }
  });
});
