import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { ProvisionedDeveloper } from './api';
import { useProvisionDeveloper } from './hooks';

export interface ProvisionModalProps {
  opened: boolean;
  onClose: () => void;
  onProvisioned: (provisioned: ProvisionedDeveloper) => void;
}

/** A new developer account: its owner is invited by e-mail (accepting verifies the account's e-mail). */
export function ProvisionModal({ opened, onClose, onProvisioned }: ProvisionModalProps) {
  const provision = useProvisionDeveloper();
  const form = useForm({
    initialValues: { name: '', email: '' },
    validate: {
      name: (value) => (value.trim() ? null : 'Enter the account’s name'),
      email: (value) => (/^\S+@\S+$/.test(value.trim()) ? null : 'Enter an e-mail address'),
    },
  });
  const fieldErrors = fieldErrorsOf(provision.error);
  const close = () => {
    form.reset();
    provision.reset();
    onClose();
  };
  const submit = form.onSubmit(({ name, email }) =>
    provision.mutate(
      { name: name.trim(), email: email.trim() },
      {
        onSuccess: (provisioned) => {
          notifications.show({ color: 'green', message: `${provisioned.developer.name} is provisioned; an invitation went to ${provisioned.owner_invitation.email}.` });
          form.reset();
          provision.reset();
          onProvisioned(provisioned);
        },
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title="Provision a developer account">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Account name" required data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Owner’s e-mail" type="email" required description="The owner gets an invitation, valid 7 days, to choose a password." {...form.getInputProps('email')} />
          {provision.error && Object.keys(fieldErrors).length === 0 && <ErrorAlert title="The account was not provisioned" error={provision.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={provision.isPending}>
              Provision account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
