import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

/** What can be exported: one CSV row per object, with the same fields as that object's list. See docs/exports.md. */
export const EXPORT_TYPES = ['payments', 'refunds', 'ledger', 'customers', 'transfers', 'settlements', 'disputes', 'invoices'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** queued → running → completed | failed; completed → expired once the file is deleted (after the retention period). */
export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export class CreateExportRequest {
  /** payments, refunds, ledger, customers, transfers, settlements, disputes or invoices. @example "payments" */
  @IsIn(EXPORT_TYPES, { message: `type must be one of: ${EXPORT_TYPES.join(', ')}` })
  type: ExportType;

  /** Objects created at or after this instant (ISO 8601). @example "2026-11-01T00:00:00Z" */
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from: string;

  /** Objects created before this instant (exclusive; ISO 8601); after `from`, at most 366 days later by default. @example "2026-12-01T00:00:00Z" */
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to: string;

  /** Only this currency (payments, ledger, transfers, settlements). @example "NGN" */
  @IsOptional()
  @IsString()
  @MaxLength(3)
  currency?: string;

  /** Only this status, one of the type's statuses (payments, refunds, transfers, settlements, disputes, invoices). @example "success" */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  status?: string;
}

export class ListExportsQuery extends ListQueryDto {}

export class ExportFiltersResponse {
  from: string;
  to: string;
  currency: string | null;
  status: string | null;
}

export class ExportResponse {
  /** `exp_…` */
  reference: string;
  type: ExportType;
  status: ExportStatus;
  filters: ExportFiltersResponse;
  /** Rows written so far (updated while the export runs). */
  rows_done: number;
  /** Rows the export will hold, counted when it starts; null while queued. */
  rows_total: number | null;
  /** 0–100, whole percent of rows_total written (100 once completed). */
  progress: number;
  /** Bytes of the CSV file, once completed. */
  file_size: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** When the file is (or was) deleted: completed_at plus the retention period (7 days by default). */
  expires_at: string | null;
  /** Where to download the file while it is `completed` (the same authentication as this request); null otherwise. */
  download_url: string | null;
  /** A short error class when `failed` (e.g. `storage_error`), never internals. */
  error: string | null;
}
