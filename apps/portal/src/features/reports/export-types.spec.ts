import { EXPORT_TYPES, formatFileSize, isInProgress, localDayStart } from './export-types';

describe('reports export helpers', () => {
  it('turns the user’s days into the instants they start in the user’s zone; the end is the next day’s start (exclusive)', () => {
    expect(localDayStart('2026-11-26')).toBe(new Date(2026, 10, 26).toISOString());
    expect(localDayStart('2026-11-30', true)).toBe(new Date(2026, 11, 1).toISOString());
    expect(localDayStart('2026-12-31', true)).toBe(new Date(2027, 0, 1).toISOString());
    expect(localDayStart('')).toBeUndefined();
    expect(localDayStart('26/11/2026')).toBeUndefined();
  });

  it('polls only queued and running exports', () => {
    expect((['queued', 'running', 'completed', 'failed', 'expired'] as const).map(isInProgress)).toEqual([true, true, false, false, false]);
  });

  it('offers the currency filter only for the types the API filters by currency', () => {
    expect(EXPORT_TYPES.filter((t) => t.currency).map((t) => t.value)).toEqual(['payments', 'ledger', 'transfers', 'settlements']);
    expect(EXPORT_TYPES.filter((t) => t.statuses.length === 0).map((t) => t.value)).toEqual(['ledger', 'customers']);
  });

  it('shows file sizes as people read them', () => {
    expect([formatFileSize(null), formatFileSize(512), formatFileSize(1536), formatFileSize(5 * 1024 * 1024)]).toEqual(['—', '512 bytes', `${(1.5).toLocaleString()} KB`, '5 MB']);
  });
});
