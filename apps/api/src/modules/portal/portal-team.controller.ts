import { Body, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ChangeRoleRequest, InvitationResponse, InviteMemberRequest, TeamMemberResponse } from '@gateway/contracts';
import { PortalTokensService, type TeamActor, TeamService } from '@gateway/domain/identity';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { toInvitation, toTeamMember } from './portal.mapper';

/**
 * Members of the account. Admins and owners manage the team; only owners make, change or
 * remove owners; the last owner stays.
 */
@PortalController('team')
export class PortalTeamController {
  constructor(
    private readonly team: TeamService,
    private readonly tokens: PortalTokensService,
  ) {}

  @Get('members')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List members' })
  @ApiContract({ response: [TeamMemberResponse], errors: ['authentication_failed', 'insufficient_role'] })
  async members(@PortalSession() session: PortalSessionContext): Promise<TeamMemberResponse[]> {
    return (await this.team.listMembers(accountContext(session).developerId)).map(toTeamMember);
  }

  @Get('invitations')
  @PortalAccess({ session: 'active', permission: 'team:manage' })
  @ApiOperation({ summary: 'List pending invitations' })
  @ApiContract({ response: [InvitationResponse], errors: ['authentication_failed', 'insufficient_role'] })
  async invitations(@PortalSession() session: PortalSessionContext): Promise<InvitationResponse[]> {
    return (await this.tokens.pendingInvitations(accountContext(session).developerId)).map(toInvitation);
  }

  @Post('invitations')
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'team:manage' })
  @ApiOperation({ summary: 'Invite someone by e-mail', description: 'E-mails a single-use link valid 7 days. Only owners invite owners.' })
  @ApiContract({ body: InviteMemberRequest, response: InvitationResponse, status: 201, errors: ['validation_error', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async invite(@PortalSession() session: PortalSessionContext, @Body() body: InviteMemberRequest): Promise<InvitationResponse> {
    const actor = teamActor(session);
    return toInvitation(await this.team.invite({ userId: actor.userId, accountRole: actor.role }, actor.developerId, body.email, body.role));
  }

  @Delete('invitations/:id')
  @HttpCode(204)
  @PortalAccess({ session: 'active', permission: 'team:manage' })
  @ApiOperation({ summary: 'Withdraw a pending invitation' })
  @ApiContract({ status: 204, errors: ['not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async withdraw(@PortalSession() session: PortalSessionContext, @Param('id') id: string): Promise<void> {
    await this.tokens.revokeInvitation(accountContext(session).developerId, id);
  }

  @Put('members/:userId/role')
  @PortalAccess({ session: 'active', permission: 'team:manage' })
  @ApiOperation({ summary: "Change a member's role", description: 'Anything involving the owner role needs an owner; the last owner cannot be demoted (409 `last_owner`).' })
  @ApiContract({ body: ChangeRoleRequest, response: TeamMemberResponse, errors: ['user_not_found', 'insufficient_role', 'last_owner', 'csrf_token_invalid'] })
  async changeRole(@PortalSession() session: PortalSessionContext, @Param('userId') userId: string, @Body() body: ChangeRoleRequest): Promise<TeamMemberResponse> {
    return toTeamMember(await this.team.changeRole(teamActor(session), userId, body.role));
  }

  @Delete('members/:userId')
  @HttpCode(204)
  @PortalAccess({ session: 'active', permission: 'team:manage' })
  @ApiOperation({ summary: 'Remove a member', description: 'Their sessions end at once. Removing an owner needs an owner; the last owner stays (409 `last_owner`).' })
  @ApiContract({ status: 204, errors: ['user_not_found', 'insufficient_role', 'last_owner', 'csrf_token_invalid'] })
  async remove(@PortalSession() session: PortalSessionContext, @Param('userId') userId: string): Promise<void> {
    await this.team.removeMember(teamActor(session), userId);
  }
}

function teamActor(session: PortalSessionContext): TeamActor {
  const { developerId } = accountContext(session);
  return { userId: session.actor.userId, developerId, role: (session.actor.account as { role: TeamActor['role'] }).role };
}
