import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmModal } from '../../../shared/ui/ConfirmModal';
import type { Invitation } from '../api';
import { useWithdrawInvitation } from '../hooks/useTeam';

export interface WithdrawInvitationModalProps {
  invitation: Invitation | null;
  onClose: () => void;
}

export function WithdrawInvitationModal({ invitation, onClose }: WithdrawInvitationModalProps) {
  const withdraw = useWithdrawInvitation();
  const close = () => {
    withdraw.reset();
    onClose();
  };
  const confirm = () => {
    if (!invitation) return;
    withdraw.mutate(invitation.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Invitation to ${invitation.email} withdrawn.` });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={invitation !== null}
      title="Withdraw invitation"
      confirmLabel="Withdraw invitation"
      error={withdraw.error}
      errorTitle="The invitation was not withdrawn"
      pending={withdraw.isPending}
      onConfirm={confirm}
      onClose={close}
    >
      <Text size="sm">The link sent to {invitation?.email} will stop working. You can invite them again later.</Text>
    </ConfirmModal>
  );
}
