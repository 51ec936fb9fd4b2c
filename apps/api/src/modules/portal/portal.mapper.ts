import type {
  AccountRole,
  AdminDeveloperResponse,
  DevMailResponse,
  FeeOverrideChangeResponse,
  FeeOverrideResponse,
  InvitationResponse,
  IpAllowlistEntryResponse,
  MeResponse,
  PortalKeyResponse,
  TeamMemberResponse,
} from '@gateway/contracts';
import type { ApiKey, IpAllowlistEntry } from '@gateway/domain/api-keys';
import { type Developer, developerStatus, type FeeOverrideChange } from '@gateway/domain/developers';
import type { DevMail, PortalToken, ResolvedSession, TeamMember } from '@gateway/domain/identity';
import type { Amount, Currency } from '@gateway/platform';

/** The only bridge from domain objects to the portal's wire shapes (snake_case, ISO dates). */
export function toMeResponse(session: ResolvedSession, developer: Developer | null, totpEnabled: boolean): MeResponse {
  const { actor } = session;
  return {
    id: actor.userId,
    email: actor.email,
    name: actor.name,
    email_verified: actor.emailVerified,
    totp_enabled: totpEnabled,
    platform_role: actor.platformRole,
    account:
      actor.account && developer
        ? {
            developer_id: developer.id,
            name: developer.name,
            role: actor.account.role,
            email_verified: developer.emailVerifiedAt !== null,
            identity_verified: developer.identityVerifiedAt !== null,
          }
        : null,
    session: { mode: session.mode, expires_at: session.expiresAt.toISOString(), idle_expires_at: session.idleExpiresAt.toISOString() },
  };
}

export function toPortalKey(key: ApiKey, now: Date): PortalKeyResponse {
  return {
    id: key.id,
    mode: key.mode,
    kind: key.kind,
    name: key.name,
    hint: key.keyHint,
    scopes: key.scopes,
    status: keyStatus(key, now),
    created_at: key.createdAt.toISOString(),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
    last_used_at: iso(key.lastUsedAt),
    last_used_ip: key.lastUsedIp,
  };
}

function keyStatus(key: ApiKey, now: Date): PortalKeyResponse['status'] {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return key.expiresAt ? 'expiring' : 'active';
}

export function toIpAllowlistEntry(entry: IpAllowlistEntry): IpAllowlistEntryResponse {
  return { id: entry.id, cidr: entry.cidr, api_key_id: entry.apiKeyId, label: entry.label, created_at: entry.createdAt.toISOString() };
}

export function toTeamMember(member: TeamMember): TeamMemberResponse {
  return { user_id: member.userId, email: member.email, name: member.name, role: member.role, joined_at: member.joinedAt.toISOString() };
}

export function toInvitation(token: PortalToken): InvitationResponse {
  return {
    id: token.id,
    email: token.email,
    // Invitations always carry a role (a CHECK constraint says so).
    role: token.role as AccountRole,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt.toISOString(),
  };
}

export function toFeeOverride(currency: Currency, amount: Amount): FeeOverrideResponse {
  return { currency, amount: amount.toNumber() };
}

export function toAdminDeveloper(developer: Developer, fees: Array<[Currency, Amount | null]>, history: FeeOverrideChange[] = []): AdminDeveloperResponse {
  return {
    id: developer.id,
    email: developer.email,
    name: developer.name,
    email_verified: developer.emailVerifiedAt !== null,
    identity_verified: developer.identityVerifiedAt !== null,
    email_verified_at: developer.emailVerifiedAt?.toISOString() ?? null,
    identity_verified_at: developer.identityVerifiedAt?.toISOString() ?? null,
    status: developerStatus(developer),
    suspended_at: developer.suspendedAt?.toISOString() ?? null,
    suspension_reason: developer.suspensionReason,
    created_at: developer.createdAt.toISOString(),
    fee_overrides: fees.filter((f): f is [Currency, Amount] => f[1] !== null).map(([currency, amount]) => toFeeOverride(currency, amount)),
    fee_override_history: history.map(toFeeOverrideChange),
  };
}

export function toFeeOverrideChange(change: FeeOverrideChange): FeeOverrideChangeResponse {
  return {
    currency: change.currency,
    amount: change.amount?.toNumber() ?? null,
    previous_amount: change.previousAmount?.toNumber() ?? null,
    changed_by: change.changedBy,
    changed_at: change.changedAt.toISOString(),
  };
}

export function toDevMail(mail: DevMail): DevMailResponse {
  return { id: mail.id, to: mail.recipient, subject: mail.subject, body: mail.body, created_at: mail.createdAt.toISOString() };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
