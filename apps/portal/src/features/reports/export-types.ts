import type { Schema } from '../../shared/api';
import type { ExportStatus, ExportType } from './api';

/**
 * What each export holds, which filters apply to it (the API's rules, docs/exports.md) and the
 * statuses its objects have (the types below come from the OpenAPI document).
 */
export const EXPORT_TYPES: ReadonlyArray<{ value: ExportType; label: string; currency: boolean; statuses: readonly string[] }> = [
  { value: 'payments', label: 'Payments', currency: true, statuses: ['pending', 'success', 'failed', 'abandoned', 'scheduled', 'cancelled'] satisfies ReadonlyArray<Schema<'PaymentResponse'>['status']> },
  { value: 'refunds', label: 'Refunds', currency: false, statuses: ['pending', 'processed', 'failed'] satisfies ReadonlyArray<Schema<'RefundResponse'>['status']> },
  { value: 'ledger', label: 'Ledger entries', currency: true, statuses: [] },
  { value: 'customers', label: 'Customers', currency: false, statuses: [] },
  { value: 'transfers', label: 'Transfers', currency: true, statuses: ['pending', 'success', 'failed', 'reversed'] },
  { value: 'settlements', label: 'Withdrawals (settlements)', currency: true, statuses: ['pending_approval', 'approved', 'processing', 'completed', 'failed', 'rejected'] satisfies ReadonlyArray<Schema<'SettlementResponse'>['status']> },
  { value: 'disputes', label: 'Disputes', currency: false, statuses: ['open', 'under_review', 'won', 'lost'] },
  { value: 'invoices', label: 'Invoices', currency: false, statuses: ['draft', 'sent', 'partially_paid', 'paid', 'overdue', 'cancelled'] },
];

type Listed = (typeof EXPORT_TYPES)[number]['value'];
type Missing = Exclude<ExportType, Listed>;
export const EXPORT_TYPES_ARE_COMPLETE: [Missing] extends [never] ? true : Missing = true;

export function exportTypeLabel(type: ExportType): string {
  return EXPORT_TYPES.find((t) => t.value === type)?.label ?? type;
}

/** Still being written: the list keeps asking the API until it is not. */
export function isInProgress(status: ExportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * A day the user picked (`YYYY-MM-DD`, a `date` field) as the instant it starts in their own zone;
 * `nextDay` gives the start of the following day, the exclusive end of a range that includes the day.
 */
export function localDayStart(day: string, nextDay = false): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const start = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + (nextDay ? 1 : 0));
  return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
}

/** A file size as people read it: 1536 → "1.5 KB". */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}
