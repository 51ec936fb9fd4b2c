import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ExportStatus, ExportType, Mode } from '@gateway/contracts';

/** What an export covers: objects created in [from, to), optionally one currency and one status. */
export interface ExportFilters {
  from: string;
  to: string;
  currency: string | null;
  status: string | null;
}

const bigintNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** One requested CSV export (table `exports`). The row outlives its file (status `expired`). */
@Entity({ name: 'exports' })
export class ExportEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`exp_…`), used in paths. */
  @Column('text')
  reference: string;

  @Column('text')
  type: ExportType;

  @Column('jsonb')
  filters: ExportFilters;

  @Column('text')
  status: ExportStatus;

  @Column('bigint', { name: 'rows_done', transformer: bigintNumber })
  rowsDone: number;

  @Column('bigint', { name: 'rows_total', nullable: true, transformer: bigintNumber })
  rowsTotal: number | null;

  /** Where the storage keeps the file (a key, never a path a client sees). */
  @Column('text', { name: 'file_key', nullable: true })
  fileKey: string | null;

  @Column('bigint', { name: 'file_size', nullable: true, transformer: bigintNumber })
  fileSize: number | null;

  /** SHA-256 (hex) of the file's bytes, for integrity checks. */
  @Column('text', { name: 'content_sha256', nullable: true })
  contentSha256: string | null;

  /** `user:<id>` (portal) or `key:<id>` (API key). */
  @Column('text', { name: 'requested_by' })
  requestedBy: string;

  /** Who is e-mailed when a large export is ready: the portal user, or the account owner for an API key. */
  @Column('text', { name: 'notify_email', nullable: true })
  notifyEmail: string | null;

  /** A short error class when failed (`storage_error`, `source_error`), never internals. */
  @Column('text', { nullable: true })
  error: string | null;

  /** Runs started (a retry after a crash restarts the file from scratch). */
  @Column('integer')
  attempts: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  /** Moved on by a running export with each progress update; a stale one means its worker died. */
  @Column('timestamptz', { name: 'heartbeat_at', nullable: true })
  heartbeatAt: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  /** completed_at (the tenant's time) + the retention period. */
  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'expired_at', nullable: true })
  expiredAt: Date | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
