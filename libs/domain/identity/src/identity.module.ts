import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DevelopersModule } from '@gateway/domain/developers';
import { APP_CONFIG, type AppConfig, Encryptor, encryptorFromConfig } from '@gateway/platform';
import { AccountRecoveryService } from './account-recovery.service';
import { DeveloperProvisioningService } from './developer-provisioning.service';
import { IDENTITY_ENTITIES } from './entities';
import { IdentityHousekeepingService } from './identity-housekeeping.service';
import { LoginThrottleService } from './login-throttle.service';
import { LoginService } from './login.service';
import { MailerService } from './mail/mailer.service';
import { PasswordHasher } from './password-hasher';
import { PortalTokensService } from './portal-tokens.service';
import { SessionsService } from './sessions.service';
import { TeamService } from './team.service';
import { TotpService } from './totp/totp.service';
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

/** People of the portal: users, memberships and roles, sessions, TOTP, e-mailed links. */
@Module({
  imports: [TypeOrmModule.forFeature(IDENTITY_ENTITIES), DevelopersModule],
  providers: [
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
