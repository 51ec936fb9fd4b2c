import type { Role } from './api';

/** The account roles, most powerful first, as docs/portal-api.md describes them. */
export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner — everything, including owners' },
  { value: 'admin', label: 'Admin — everything but owners' },
  { value: 'developer', label: 'Developer — keys, allowlist, webhooks' },
  { value: 'viewer', label: 'Viewer — read only' },
];

/**
 * Who may manage the team. Owner-only rules (anything involving an owner, the last owner) are
 * left to the API, whose answer the dialogs show: it alone knows the whole account.
 */
export function canManageTeam(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}
