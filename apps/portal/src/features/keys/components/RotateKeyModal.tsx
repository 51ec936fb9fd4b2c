import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { needsTotp } from '../../../shared/ui/errors';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import type { PortalKey } from '../api';
import { useRotateKey } from '../hooks/useKeys';

/** The API's limit on how long the old key keeps working after a rotation. */
const MAX_OVERLAP_HOURS = 168;

export interface RotateKeyModalProps {
  apiKey: PortalKey | null;
  onClose: () => void;
  onRotated: (secret: string) => void;
}

export function RotateKeyModal({ apiKey, onClose, onRotated }: RotateKeyModalProps) {
  const rotate = useRotateKey();
  const form = useForm({
    initialValues: { overlapHours: 0 as number | string, totp: '' },
    validate: {
      overlapHours: (value) => {
        const hours = Number(value);
        return Number.isInteger(hours) && hours >= 0 && hours <= MAX_OVERLAP_HOURS ? null : `0 to ${MAX_OVERLAP_HOURS} hours`;
      },
    },
  });
  const askTotp = needsTotp(rotate.error) || form.values.totp !== '';

  const close = () => {
    form.reset();
    rotate.reset();
    onClose();
  };

  const submit = form.onSubmit(({ overlapHours, totp }) => {
    if (!apiKey) return;
    rotate.mutate(
      { id: apiKey.id, overlapHours: Number(overlapHours), totp: totp || undefined },
      {
        onSuccess: (issued) => {
          close();
          onRotated(issued.secret);
        },
      },
    );
  });

  return (
    <Modal opened={apiKey !== null} onClose={close} title="Rotate key">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            A new key with the same name, kind and scopes replaces <code>{apiKey?.hint}</code>.
          </Text>
          <NumberInput
            label="Keep the old key working for (hours)"
            description="0 stops it at once; up to 168 hours gives your deployments time to switch."
            min={0}
            max={MAX_OVERLAP_HOURS}
            allowDecimal={false}
            {...form.getInputProps('overlapHours')}
          />
          {askTotp && <TotpCodeField {...form.getInputProps('totp')} />}
          {rotate.error && <ErrorAlert title="The key was not rotated" error={rotate.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={rotate.isPending}>
              Rotate key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
