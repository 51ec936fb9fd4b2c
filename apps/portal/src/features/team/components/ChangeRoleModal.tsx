import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { Member, Role } from '../api';
import { useChangeRole } from '../hooks/useTeam';
import { ROLE_OPTIONS } from '../roles';

export interface ChangeRoleModalProps {
  member: Member | null;
  onClose: () => void;
}

export function ChangeRoleModal({ member, onClose }: ChangeRoleModalProps) {
  const change = useChangeRole();
  // null: the member's current role; the select starts there each time the dialog opens.
  const [picked, setPicked] = useState<Role | null>(null);
  const role = picked ?? member?.role ?? 'viewer';

  const close = () => {
    setPicked(null);
    change.reset();
    onClose();
  };
  const save = () => {
    if (!member) return;
    change.mutate(
      { userId: member.user_id, role },
      {
        onSuccess: (updated) => {
          notifications.show({ color: 'green', message: `${updated.email} is now ${updated.role}.` });
          close();
        },
      },
    );
  };

  return (
    <Modal opened={member !== null} onClose={close} title="Change role">
      <Stack>
        <Text size="sm">{member?.email}</Text>
        <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} value={role} onChange={(value) => setPicked(value as Role | null)} />
        {/* Owner-only rules and the last owner are the API's to judge (403 insufficient_role, 409 last_owner). */}
        {change.error && <ErrorAlert title="The role was not changed" error={change.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={save} loading={change.isPending} disabled={role === member?.role}>
            Save role
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
