import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { Role } from '../api';
import { useInvite } from '../hooks/useTeam';
import { ROLE_OPTIONS } from '../roles';

export interface InviteModalProps {
  opened: boolean;
  onClose: () => void;
}

export function InviteModal({ opened, onClose }: InviteModalProps) {
  const invite = useInvite();
  const form = useForm({
    initialValues: { email: '', role: 'developer' as Role },
    validate: { email: (value) => (/^\S+@\S+$/.test(value.trim()) ? null : 'Enter an e-mail address') },
  });
  const fieldErrors = fieldErrorsOf(invite.error);

  const close = () => {
    form.reset();
    invite.reset();
    onClose();
  };

  const submit = form.onSubmit(({ email, role }) =>
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (invitation) => {
          notifications.show({ color: 'green', message: `Invitation sent to ${invitation.email}.` });
          close();
        },
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    ),
  );

  return (
    <Modal opened={opened} onClose={close} title="Invite a member">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="E-mail" type="email" required data-autofocus description="They get a link, valid 7 days, to choose a password." {...form.getInputProps('email')} />
          <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} {...form.getInputProps('role')} />
          {invite.error && Object.keys(fieldErrors).length === 0 && <ErrorAlert title="The invitation was not sent" error={invite.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
