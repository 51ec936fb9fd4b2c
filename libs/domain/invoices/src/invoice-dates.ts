import { INVOICE_DATE } from '@gateway/contracts';

/** Whether `text` is a YYYY-MM-DD date that exists (2026-02-29 does not). */
export function isCalendarDate(text: string): boolean {
  if (!INVOICE_DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The UTC calendar date of an instant: the tenant's "today" when given the tenant's now. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Why `dueDate` is refused as of `today` (both YYYY-MM-DD), or null. */
export function dueDateProblem(dueDate: string, today: string): string | null {
  if (!isCalendarDate(dueDate)) return 'due_date must be a real calendar date (YYYY-MM-DD)';
  if (dueDate < today) return `due_date must not be before today (${today}, UTC)`;
  return null;
}
