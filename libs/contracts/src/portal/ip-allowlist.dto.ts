import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';

export class AddIpAllowlistEntryRequest {
  /** An IPv4 or IPv6 address or CIDR range: `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`. */
  @IsString()
  @MinLength(2)
  @MaxLength(100)
  cidr: string;

  /** Limit the entry to one key; omitted = every key of the account. */
  @IsOptional()
  @IsUUID()
  api_key_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;
}

export class IpAllowlistEntryResponse {
  id: string;
  cidr: string;
  api_key_id: string | null;
  label: string | null;
  created_at: string;
}
