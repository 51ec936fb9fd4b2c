import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { API_KEY_KINDS, type ApiKeyKind, type Scope, SCOPE_NAMES } from '../auth';
import type { Mode } from '../common';

export const MAX_ROTATION_OVERLAP_HOURS = 168;

export class CreatePortalKeyRequest {
  @IsOptional()
  @IsIn(API_KEY_KINDS)
  kind?: ApiKeyKind;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** Omitted or empty = full access. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SCOPE_NAMES.length)
  @IsIn(SCOPE_NAMES, { each: true, message: 'each scope must be one of the scope catalog' })
  scopes?: Scope[];
}

export class RotatePortalKeyRequest {
  /** 0 or omitted: the old key stops at once. Otherwise it keeps working this many hours. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_ROTATION_OVERLAP_HOURS)
  overlap_hours?: number;
}

export class SetKeyScopesRequest {
  @IsArray()
  @ArrayMaxSize(SCOPE_NAMES.length)
  @IsIn(SCOPE_NAMES, { each: true, message: 'each scope must be one of the scope catalog' })
  scopes: Scope[];
}

export class PortalKeyResponse {
  id: string;
  mode: Mode;
  kind: ApiKeyKind;
  name: string | null;
  /** Prefix and last four characters; the key itself is never shown again. */
  hint: string;
  scopes: Scope[];
  status: 'active' | 'expiring' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
}

export class IssuedPortalKeyResponse {
  key: PortalKeyResponse;
  /** Shown exactly once. */
  secret: string;
}

export class RotatedPortalKeyResponse extends IssuedPortalKeyResponse {
  previous: PortalKeyResponse;
}
