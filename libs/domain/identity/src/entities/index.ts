export { DevMailEntity } from './dev-mail.entity';
export { LoginThrottleEntity } from './login-throttle.entity';
export { MembershipEntity } from './membership.entity';
export { OutboundMailEntity } from './outbound-mail.entity';
export { PortalSessionEntity, type SessionStage } from './portal-session.entity';
export { PortalTokenEntity, type PortalTokenPurpose } from './portal-token.entity';
export { UserEntity } from './user.entity';
export { UserTotpEntity } from './user-totp.entity';

import { DevMailEntity } from './dev-mail.entity';
import { LoginThrottleEntity } from './login-throttle.entity';
import { MembershipEntity } from './membership.entity';
import { OutboundMailEntity } from './outbound-mail.entity';
import { PortalSessionEntity } from './portal-session.entity';
import { PortalTokenEntity } from './portal-token.entity';
import { UserEntity } from './user.entity';
import { UserTotpEntity } from './user-totp.entity';

export const IDENTITY_ENTITIES = [
  UserEntity,
  MembershipEntity,
  UserTotpEntity,
  PortalSessionEntity,
  LoginThrottleEntity,
  PortalTokenEntity,
  DevMailEntity,
  OutboundMailEntity,
];
