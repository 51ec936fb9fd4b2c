import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'operator', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const AUDIT_EXPORT_FORMATS = ['json', 'csv'] as const;

/** `GET /api/portal/audit`: an owner's view of their own account's audit log, newest first. */
export class AuditEventsQuery extends ListQueryDto {
  /** The actor's e-mail or key hint, exactly (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(254)
  actor?: string;

  /** E.g. `api_key.revoked`. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  action?: string;

  /** E.g. `api_key`, `developer`, `settlement`, `user`. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  target_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  target_id?: string;

  /** Inclusive ISO 8601 bounds on occurred_at. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  /** `csv` streams every matching row as CSV (as does `Accept: text/csv`); `limit` and `cursor` then do not apply. */
  @IsOptional()
  @IsIn(AUDIT_EXPORT_FORMATS)
  format?: (typeof AUDIT_EXPORT_FORMATS)[number];
}

/** `GET /api/portal/admin/audit`: every account's audit log (platform staff). */
export class AdminAuditEventsQuery extends AuditEventsQuery {
  @IsOptional()
  @IsUUID()
  developer_id?: string;
}

export class AuditActorResponse {
  type: AuditActorType;
  id: string | null;
  /** An e-mail or a key hint; never a secret. */
  label: string | null;
}

export class AuditTargetResponse {
  type: string;
  id: string;
}

/** One audit log row. `before` and `after` hold the changed state, never a secret. */
export class AuditEventResponse {
  id: string;
  occurred_at: string;
  actor: AuditActorResponse;
  developer_id: string | null;
  action: string;
  target: AuditTargetResponse | null;
  ip: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
