import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { ACCOUNT_ROLES, type AccountRole } from './roles';

export class InviteMemberRequest {
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsIn(ACCOUNT_ROLES)
  role: AccountRole;
}

export class ChangeRoleRequest {
  @IsIn(ACCOUNT_ROLES)
  role: AccountRole;
}

export class TeamMemberResponse {
  user_id: string;
  email: string;
  name: string;
  role: AccountRole;
  joined_at: string;
}

export class InvitationResponse {
  id: string;
  email: string;
  role: AccountRole;
  created_at: string;
  expires_at: string;
}
