import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const DEVELOPER_STATUSES = ['active', 'suspended'] as const;
export type DeveloperStatus = (typeof DEVELOPER_STATUSES)[number];

/** `GET /api/portal/admin/developers`: newest first. */
export class AdminDevelopersQuery extends ListQueryDto {
  /** Part of the name or e-mail, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @IsOptional()
  @IsIn(DEVELOPER_STATUSES)
  status?: DeveloperStatus;
}

/** A developer account in the staff list. */
export class AdminDeveloperSummaryResponse {
  id: string;
  email: string;
  name: string;
  status: DeveloperStatus;
  email_verified_at: string | null;
  identity_verified_at: string | null;
  suspended_at: string | null;
  suspension_reason: string | null;
  created_at: string;
}

/** Optional body of verify-email and verify-identity: a note kept in the audit log. */
export class StaffNoteRequest {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}

export class SuspendDeveloperRequest {
  /** Why (kept on the account and in the audit log). */
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

/** One change of a fee override; amounts in the major unit, null = the default platform fee. */
export class FeeOverrideChangeResponse {
  currency: string;
  amount: number | null;
  previous_amount: number | null;
  changed_by: string;
  changed_at: string;
}
