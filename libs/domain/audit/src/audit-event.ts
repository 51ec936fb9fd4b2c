/** Who acted: a portal user, an API key, an operator at the CLI, or the platform itself (a scheduled job). */
export type AuditActorType = 'user' | 'api_key' | 'operator' | 'system';

export const AUDIT_ACTOR_TYPES: readonly AuditActorType[] = ['user', 'api_key', 'operator', 'system'];

export interface AuditActor {
  type: AuditActorType;
  /** The user's or key's id; the operator's e-mail (or `cli`); null for the system. */
  id: string | null;
  /** An e-mail or a key hint (`sk_live_…abcd`): never a secret. */
  label: string | null;
  /** The client address the action came from, when it came over HTTP. */
  ip?: string | null;
}

/** Plain JSON: never a secret (key hints, not keys; no TOTP secret, no password). */
export type AuditState = Record<string, unknown>;

/** What a capability records about one action. */
export interface AuditEntry {
  actor: AuditActor;
  action: string;
  /** The account concerned (what its owners see); null for platform-wide actions. */
  developerId?: string | null;
  target?: { type: string; id: string } | null;
  before?: AuditState | null;
  after?: AuditState | null;
}

/** A recorded row. */
export interface AuditEvent {
  id: string;
  /** Insertion order: what lists page by, newest first, and what a follower polls after. */
  seq: bigint;
  occurredAt: Date;
  actor: { type: AuditActorType; id: string | null; label: string | null };
  developerId: string | null;
  action: string;
  target: { type: string; id: string } | null;
  ip: string | null;
  before: AuditState | null;
  after: AuditState | null;
}

/** The filters of both audit lists (an owner's is always pinned to their account). */
export interface AuditFilter {
  developerId?: string;
  /** Matches the actor's label (e-mail or key hint), case-insensitive, exactly. */
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

/** The system itself (scheduled jobs). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, label: 'system' };

/** An operator at the CLI, labelled by the staff e-mail they gave (`--by`), else `cli`. */
export function operatorActor(by?: string | null): AuditActor {
  const label = by?.trim() || 'cli';
  return { type: 'operator', id: label, label };
}
