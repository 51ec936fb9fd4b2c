import { Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { needsTotp } from '../../../shared/ui/errors';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import type { KeyKind, KeyScope } from '../api';
import { useCreateKey } from '../hooks/useKeys';
import { KEY_SCOPES } from '../scopes';

export interface CreateKeyModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (secret: string) => void;
}

export function CreateKeyModal({ opened, onClose, onCreated }: CreateKeyModalProps) {
  const create = useCreateKey();
  const form = useForm({
    initialValues: { name: '', kind: 'secret' as KeyKind, scopes: [] as KeyScope[], totp: '' },
    validate: { name: (value) => (value.length > 100 ? 'At most 100 characters' : null) },
  });
  const askTotp = needsTotp(create.error) || form.values.totp !== '';

  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };

  const submit = form.onSubmit(({ name, kind, scopes, totp }) => {
    const body = { kind, ...(name.trim() ? { name: name.trim() } : {}), ...(scopes.length ? { scopes } : {}) };
    create.mutate(
      { body, totp: totp || undefined },
      {
        onSuccess: (issued) => {
          close();
          onCreated(issued.secret);
        },
      },
    );
  });

  return (
    <Modal opened={opened} onClose={close} title="Create an API key">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Name" description="For you: where the key is used." placeholder="Checkout server" {...form.getInputProps('name')} />
          <div>
            <Text size="sm" fw={500} id="key-kind-label">
              Kind
            </Text>
            <SegmentedControl
              aria-labelledby="key-kind-label"
              data={[
                { value: 'secret', label: 'Secret' },
                { value: 'publishable', label: 'Publishable' },
              ]}
              {...form.getInputProps('kind')}
            />
          </div>
          <MultiSelect label="Scopes" description="None selected: full access." data={[...KEY_SCOPES]} searchable clearable {...form.getInputProps('scopes')} />
          {askTotp && <TotpCodeField {...form.getInputProps('totp')} />}
          {create.error && !needsTotp(create.error) && <ErrorAlert title="The key was not created" error={create.error} />}
          {create.error && needsTotp(create.error) && form.values.totp === '' && (
            <Text size="sm" c="orange" role="alert">
              {create.error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
