export { IdentityModule } from './identity.module';
export { AccountRecoveryService } from './account-recovery.service';
export { DeveloperProvisioningService } from './developer-provisioning.service';
export { IdentityHousekeepingService, type HousekeepingResult } from './identity-housekeeping.service';
export { isLargeWithdrawal } from './large-withdrawal';
export { INVALID_CREDENTIALS_MESSAGE, LoginService } from './login.service';
export { MailerService, type OutgoingMail, SEND_MAIL_TASK } from './mail/mailer.service';
export type { PortalActor } from './portal-actor';
export { PortalTokensService } from './portal-tokens.service';
export {
  ACCOUNT_ROLES,
  accountRoleAllows,
  PLATFORM_ROLES,
  platformRoleAllows,
  type AccountPermission,
  type AccountRole,
  type PlatformPermission,
  type PlatformRole,
} from './roles';
export { csrfTokenForSession, SessionsService, type ResolvedSession, type SessionClient, type StartedSession } from './sessions.service';
export { TeamService, type AcceptedInvitation, type Inviter, type TeamActor, type TeamMember } from './team.service';
export { TOTP_MAX_FAILURES, TotpService, type TotpAuditActor, type TotpEnrolment } from './totp/totp.service';
export { UsersService, type NewPlatformUser } from './users.service';
export type { DevMailEntity as DevMail } from './entities/dev-mail.entity';
export type { PortalTokenEntity as PortalToken, PortalTokenPurpose } from './entities/portal-token.entity';
export type { SessionStage } from './entities/portal-session.entity';
