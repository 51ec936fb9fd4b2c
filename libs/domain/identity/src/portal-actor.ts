import type { AccountRole, PlatformRole } from './roles';

/** A signed-in person as the portal sees them: who, their platform role and their account. */
export interface PortalActor {
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  platformRole: PlatformRole | null;
  /** Null for platform staff without a developer account. */
  account: { developerId: string; role: AccountRole } | null;
}
