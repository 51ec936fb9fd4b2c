import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmModal } from '../../../shared/ui/ConfirmModal';
import type { AllowlistEntry } from '../api';
import { useRemoveAllowlistEntry } from '../hooks/useIpAllowlist';

export interface RemoveEntryModalProps {
  entry: AllowlistEntry | null;
  /** The last entry gone means every address is allowed again, so the dialog says so. */
  isLast: boolean;
  onClose: () => void;
}

export function RemoveEntryModal({ entry, isLast, onClose }: RemoveEntryModalProps) {
  const remove = useRemoveAllowlistEntry();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!entry) return;
    remove.mutate(entry.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${entry.cidr} removed from the allowlist.` });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={entry !== null}
      title="Remove allowlist entry"
      confirmLabel="Remove entry"
      error={remove.error}
      errorTitle="The entry was not removed"
      pending={remove.isPending}
      onConfirm={confirm}
      onClose={close}
    >
      <Text size="sm">
        Requests from <code>{entry?.cidr}</code> will no longer be allowed by this entry.
        {isLast && ' It is the last entry: requests from every address will be accepted again.'}
      </Text>
    </ConfirmModal>
  );
}
