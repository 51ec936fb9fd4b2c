import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { PortalKey } from '../api';
import { useRevokeKey } from '../hooks/useKeys';

export interface RevokeKeyModalProps {
  apiKey: PortalKey | null;
  onClose: () => void;
}

/** Revoking cannot be undone and stops the key at once, so it is confirmed first. */
export function RevokeKeyModal({ apiKey, onClose }: RevokeKeyModalProps) {
  const revoke = useRevokeKey();
  const close = () => {
    revoke.reset();
    onClose();
  };
  const confirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Key ${apiKey.hint} revoked.` });
        close();
      },
    });
  };
  return (
    <Modal opened={apiKey !== null} onClose={close} title="Revoke key">
      <Stack>
        <Text size="sm">
          Requests with <code>{apiKey?.hint}</code> will be refused from now on. This cannot be undone.
        </Text>
        {revoke.error && <ErrorAlert title="The key was not revoked" error={revoke.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={revoke.isPending}>
            Revoke key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
