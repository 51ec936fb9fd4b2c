import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { localInputToIso } from '../../../shared/format/time';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { Webhook } from '../api';
import { isoToLocalInput } from '../health';
import { useReplayWebhook } from '../hooks/useWebhooks';

export interface ReplayModalProps {
  opened: boolean;
  webhook: Webhook;
  /** The instant the form starts from (ISO 8601). */
  initialSince: string;
  onClose: () => void;
}

/** "Replay failed since…": one new attempt of every failed delivery created since the chosen time. */
export function ReplayModal({ opened, webhook, initialSince, onClose }: ReplayModalProps) {
  const replay = useReplayWebhook();
  const form = useForm({
    initialValues: { since: '' },
    validate: {
      since: (value) => {
        const iso = localInputToIso(value);
        if (!iso) return 'Choose a date and time';
        return new Date(iso) > new Date() ? 'Must be in the past' : null;
      },
    },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({ since: isoToLocalInput(initialSince) });
    resetDirty();
    // Start from the given instant each time the dialog opens, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, initialSince]);

  const close = () => {
    form.reset();
    replay.reset();
    onClose();
  };
  const submit = form.onSubmit(({ since }) =>
    replay.mutate(
      { id: webhook.id, since: localInputToIso(since) as string },
      {
        onSuccess: ({ queued }) => {
          notifications.show({
            color: 'green',
            title: queued === 0 ? 'Nothing to replay' : `${queued} failed deliver${queued === 1 ? 'y' : 'ies'} queued`,
            message: queued === 0 ? 'No delivery to this endpoint failed since then.' : 'They are sent again within seconds, with their original event ids; the delivery log shows each as “replay”.',
          });
          close();
        },
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    ),
  );

  return (
    <Modal opened={opened} onClose={close} title="Replay failed deliveries">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Every delivery to this endpoint created since this time that ended failed is sent once more, with its original event id and a fresh signature.</Text>
          <TextInput label="Failed since" type="datetime-local" required {...form.getInputProps('since')} />
          {replay.error != null && <ErrorAlert title="Nothing was replayed" error={replay.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={replay.isPending}>
              Replay
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
