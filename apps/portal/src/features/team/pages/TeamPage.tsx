import { Button, Center, Loader, Title } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { Invitation, Member } from '../api';
import { ChangeRoleModal } from '../components/ChangeRoleModal';
import { InvitationsSection } from '../components/InvitationsSection';
import { InviteModal } from '../components/InviteModal';
import { MembersTable } from '../components/MembersTable';
import { RemoveMemberModal } from '../components/RemoveMemberModal';
import { WithdrawInvitationModal } from '../components/WithdrawInvitationModal';
import { useMembers } from '../hooks/useTeam';
import { canManageTeam } from '../roles';

/** The account's members and pending invitations; admins and owners invite, change roles and remove. */
export function TeamPage() {
  const me = useMe();
  const members = useMembers();
  const [inviting, setInviting] = useState(false);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const canManage = canManageTeam(me.data?.account?.role);

  return (
    <>
      <PageHeader
        title="Team"
        description="Everyone who can sign in to this account, and their role."
        actions={canManage && <Button onClick={() => setInviting(true)}>Invite member</Button>}
      />
      <section aria-labelledby="members-title">
        <Title order={2} size="h4" mb="sm" id="members-title">
          Members
        </Title>
        {members.isPending && (
          <Center py="xl">
            <Loader aria-label="Loading members" />
          </Center>
        )}
        {members.isError && <ErrorAlert title="The members could not be loaded" error={members.error} onRetry={() => void members.refetch()} />}
        {/* An account always has its owner, so the list is never empty. */}
        {members.isSuccess && (
          <MembersTable members={members.data} currentUserId={me.data?.id} canManage={canManage} onChangeRole={setChanging} onRemove={setRemoving} />
        )}
      </section>
      {canManage && <InvitationsSection onWithdraw={setWithdrawing} />}
      <InviteModal opened={inviting} onClose={() => setInviting(false)} />
      <ChangeRoleModal member={changing} onClose={() => setChanging(null)} />
      <RemoveMemberModal member={removing} onClose={() => setRemoving(null)} />
      <WithdrawInvitationModal invitation={withdrawing} onClose={() => setWithdrawing(null)} />
    </>
  );
}
