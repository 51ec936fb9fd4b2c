import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changeRole, invite, listInvitations, listMembers, removeMember, withdrawInvitation, type Role } from '../api';

export const MEMBERS_QUERY_KEY = ['team', 'members'] as const;
export const INVITATIONS_QUERY_KEY = ['team', 'invitations'] as const;

export function useMembers() {
  return useQuery({ queryKey: MEMBERS_QUERY_KEY, queryFn: ({ signal }) => listMembers(signal) });
}

/** Pending invitations: admins and owners only (the API refuses others), so only their section asks. */
export function useInvitations() {
  return useQuery({ queryKey: INVITATIONS_QUERY_KEY, queryFn: ({ signal }) => listInvitations(signal) });
}

function useInvalidate(queryKey: readonly string[]) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey });
}

export function useInvite() {
  const onSuccess = useInvalidate(INVITATIONS_QUERY_KEY);
  return useMutation({ mutationFn: invite, onSuccess });
}

export function useWithdrawInvitation() {
  const onSuccess = useInvalidate(INVITATIONS_QUERY_KEY);
  return useMutation({ mutationFn: withdrawInvitation, onSuccess });
}

export function useChangeRole() {
  const onSuccess = useInvalidate(MEMBERS_QUERY_KEY);
  return useMutation({ mutationFn: ({ userId, role }: { userId: string; role: Role }) => changeRole(userId, role), onSuccess });
}

export function useRemoveMember() {
  const onSuccess = useInvalidate(MEMBERS_QUERY_KEY);
  return useMutation({ mutationFn: removeMember, onSuccess });
}
