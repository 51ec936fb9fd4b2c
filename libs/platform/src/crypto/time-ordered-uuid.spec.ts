import { timeOrderedUuid } from './time-ordered-uuid';

describe('timeOrderedUuid', () => {
  it('makes version-7 UUIDs of the RFC variant, carrying the time in milliseconds, each one greater than the one before', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1000 }, () => timeOrderedUuid());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const milliseconds = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(milliseconds).toBeGreaterThanOrEqual(before);
      expect(milliseconds).toBeLessThanOrEqual(after);
    }
    // Within one millisecond too: a counter follows the time.
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
