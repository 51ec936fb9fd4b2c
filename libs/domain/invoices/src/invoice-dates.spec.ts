import 'reflect-metadata';
import { dueDateProblem, isCalendarDate, utcDate } from './invoice-dates';

describe('invoice dates', () => {
  it('knows real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-4-1')).toBe(false);
  });

  it("takes today as the instant's UTC date", () => {
    expect(utcDate(new Date('2026-11-26T23:59:59.999Z'))).toBe('2026-11-26');
    expect(utcDate(new Date('2026-11-27T00:00:00.000Z'))).toBe('2026-11-27');
  });

  it('allows a due date of today, refuses yesterday', () => {
    expect(dueDateProblem('2026-11-26', '2026-11-26')).toBeNull();
    expect(dueDateProblem('2026-11-25', '2026-11-26')).toContain('must not be before today (2026-11-26');
  });
});
