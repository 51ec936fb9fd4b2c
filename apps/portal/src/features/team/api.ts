import { portalApi, unwrap, type Schema } from '../../shared/api';

export type Member = Schema<'TeamMemberResponse'>;
export type Invitation = Schema<'InvitationResponse'>;
export type NewInvitation = Schema<'InviteMemberRequest'>;
export type Role = Member['role'];

export function listMembers(signal?: AbortSignal): Promise<Member[]> {
  return unwrap(portalApi.GET('/api/portal/team/members', { signal }));
}

export function listInvitations(signal?: AbortSignal): Promise<Invitation[]> {
  return unwrap(portalApi.GET('/api/portal/team/invitations', { signal }));
}

export function invite(body: NewInvitation): Promise<Invitation> {
  return unwrap(portalApi.POST('/api/portal/team/invitations', { body }));
}

export function withdrawInvitation(id: string): Promise<void> {
  return unwrap(portalApi.DELETE('/api/portal/team/invitations/{id}', { params: { path: { id } } }));
}

export function changeRole(userId: string, role: Role): Promise<Member> {
  return unwrap(portalApi.PUT('/api/portal/team/members/{userId}/role', { params: { path: { userId } }, body: { role } }));
}

export function removeMember(userId: string): Promise<void> {
  return unwrap(portalApi.DELETE('/api/portal/team/members/{userId}', { params: { path: { userId } } }));
}
