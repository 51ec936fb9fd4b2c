import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { useAddAllowlistEntry } from '../hooks/useIpAllowlist';

export interface AddEntryModalProps {
  opened: boolean;
  onClose: () => void;
  /** The keys an entry may be limited to (value: key id). */
  keyOptions: { value: string; label: string }[];
}

export function AddEntryModal({ opened, onClose, keyOptions }: AddEntryModalProps) {
  const add = useAddAllowlistEntry();
  const form = useForm({
    initialValues: { cidr: '', apiKeyId: null as string | null, label: '' },
    // Only what the user can fix before sending; whether it is an address is the API's call.
    validate: {
      cidr: (value) => (value.trim() ? null : 'Enter an address or range'),
      label: (value) => (value.length > 100 ? 'At most 100 characters' : null),
    },
  });
  const fieldErrors = fieldErrorsOf(add.error);

  const close = () => {
    form.reset();
    add.reset();
    onClose();
  };

  const submit = form.onSubmit(({ cidr, apiKeyId, label }) => {
    const body = { cidr: cidr.trim(), ...(apiKeyId ? { api_key_id: apiKeyId } : {}), ...(label.trim() ? { label: label.trim() } : {}) };
    add.mutate(body, {
      onSuccess: (entry) => {
        notifications.show({ color: 'green', message: `${entry.cidr} added to the allowlist.` });
        close();
      },
      // The API's field messages (not an IP, label too long) go on the fields they are about.
      onError: (error) => form.setErrors(fieldErrorsOf(error)),
    });
  });

  return (
    <Modal opened={opened} onClose={close} title="Add an allowlist entry">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Address or range" description="IPv4 or IPv6 address, or CIDR range: 203.0.113.7, 10.0.0.0/8, 2001:db8::/32" required data-autofocus {...form.getInputProps('cidr')} />
          <Select label="Key" description="Leave empty to apply it to every key of the account." placeholder="Every key" data={keyOptions} clearable {...form.getInputProps('apiKeyId')} />
          <TextInput label="Label" description="For you: what this address is." placeholder="Production servers" {...form.getInputProps('label')} />
          {add.error && Object.keys(fieldErrors).length === 0 && <ErrorAlert title="The entry was not added" error={add.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add entry
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
