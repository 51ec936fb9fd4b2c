import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmModal } from '../../../shared/ui/ConfirmModal';
import type { Member } from '../api';
import { useRemoveMember } from '../hooks/useTeam';

export interface RemoveMemberModalProps {
  member: Member | null;
  onClose: () => void;
}

export function RemoveMemberModal({ member, onClose }: RemoveMemberModalProps) {
  const remove = useRemoveMember();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!member) return;
    remove.mutate(member.user_id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${member.email} removed from the team.` });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={member !== null}
      title="Remove member"
      confirmLabel="Remove member"
      error={remove.error}
      errorTitle="The member was not removed"
      pending={remove.isPending}
      onConfirm={confirm}
      onClose={close}
    >
      <Text size="sm">
        {member?.name} ({member?.email}) loses access to the account at once: their sessions end and their sign-in is deleted.
      </Text>
    </ConfirmModal>
  );
}
