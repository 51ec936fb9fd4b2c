import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@gateway/domain/audit';
import { DevelopersModule } from '@gateway/domain/developers';
import { APP_CONFIG, type AppConfig, Encryptor, encryptorFromConfig } from '@gateway/platform';
import { AccountRecoveryService } from './account-recovery.service';
import { DeveloperProvisioningService } from './developer-provisioning.service';
import { IDENTITY_ENTITIES } from './entities';
import { IdentityHousekeepingService } from './identity-housekeeping.service';
import { LoginThrottleRepository } from './login-throttle.repository';
import { LoginThrottleService } from './login-throttle.service';
import { LoginService } from './login.service';
import { DevMailboxRepository } from './mail/dev-mailbox.repository';
import { MailerService } from './mail/mailer.service';
import { OutboundMailsRepository } from './mail/outbound-mails.repository';
import { MembershipsRepository } from './memberships.repository';
import { PasswordHasher } from './password-hasher';
import { PortalTokensRepository } from './portal-tokens.repository';
import { PortalTokensService } from './portal-tokens.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { TeamService } from './team.service';
import { TotpService } from './totp/totp.service';
import { UserTotpRepository } from './totp/user-totp.repository';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

const SERVICES = [
  AccountRecoveryService,
  DeveloperProvisioningService,
  IdentityHousekeepingService,
  LoginService,
  LoginThrottleService,
  MailerService,
  PasswordHasher,
  PortalTokensService,
  SessionsService,
  TeamService,
  TotpService,
  UsersService,
];

/** The module's own tables; private to it (not exported). */
const REPOSITORIES = [
  DevMailboxRepository,
  LoginThrottleRepository,
  MembershipsRepository,
  OutboundMailsRepository,
  PortalTokensRepository,
  SessionsRepository,
  UserTotpRepository,
  UsersRepository,
];

/** People of the portal: users, memberships and roles, sessions, TOTP, e-mailed links. */
@Module({
  imports: [TypeOrmModule.forFeature(IDENTITY_ENTITIES), DevelopersModule, AuditModule],
  providers: [
    ...REPOSITORIES,
    ...SERVICES,
    {
      provide: Encryptor,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => encryptorFromConfig(config, (message) => new Logger('Encryption').warn(message)),
    },
  ],
  exports: SERVICES,
})
export class IdentityModule {}
