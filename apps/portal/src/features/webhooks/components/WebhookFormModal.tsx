import { Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { Webhook, WebhookEvent, WebhookVersion } from '../api';
import { EVENT_GROUPS } from '../events';
import { useCreateWebhook, useUpdateWebhook } from '../hooks/useWebhooks';

export interface WebhookFormModalProps {
  opened: boolean;
  /** The endpoint to edit (its URL, events and version); none: register a new one. */
  webhook?: Webhook;
  onClose: () => void;
  /** After registering: the new endpoint, with its secret. */
  onCreated?: (created: Webhook) => void;
}

const VERSIONS = [
  { value: 'v1', label: 'v1 (flat)' },
  { value: 'v2', label: 'v2 (envelope)' },
];

/** Registers an endpoint (URL, events, payload version) or changes an endpoint's URL, events and version. */
export function WebhookFormModal({ opened, webhook, onClose, onCreated }: WebhookFormModalProps) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = webhook ? update : create;
  const form = useForm({
    initialValues: { url: '', events: [] as WebhookEvent[], version: 'v2' as WebhookVersion },
    validate: {
      url: (value) => (/^https?:\/\/\S+$/i.test(value.trim()) ? null : 'An http:// or https:// URL'),
      events: (value) => (value.length ? null : 'Choose at least one event'),
    },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    setValues(webhook ? { url: webhook.url, events: webhook.events, version: webhook.webhook_version } : { url: '', events: [], version: 'v2' });
    resetDirty();
    // Reset when the dialog opens for another endpoint, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, webhook?.id]);

  const close = () => {
    form.reset();
    create.reset();
    update.reset();
    onClose();
  };

  const submit = form.onSubmit(({ url, events, version }) => {
    const onError = (error: unknown) => form.setErrors(fieldErrorsOf(error));
    if (webhook) {
      // The URL only when it changed: the API checks a new one against the same rules as at registration.
      const newUrl = url.trim() === webhook.url ? undefined : url.trim();
      update.mutate({ id: webhook.id, changes: { ...(newUrl ? { url: newUrl } : {}), events, webhook_version: version } }, { onSuccess: close, onError });
    } else {
      create.mutate(
        { url: url.trim(), events, webhook_version: version },
        {
          onSuccess: (created) => {
            close();
            onCreated?.(created);
          },
          onError,
        },
      );
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={webhook ? 'Edit endpoint' : 'Add an endpoint'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Endpoint URL"
            description={`Test mode also accepts http:// and, where the operator allows it, your own machine; live mode needs a public https:// address.${webhook ? ' Deliveries go to the new URL from the next attempt on, signed with the same secret.' : ''}`}
            placeholder="https://example.com/webhooks/gateway"
            required
            {...form.getInputProps('url')}
          />
          <MultiSelect label="Events" description="What is sent to this endpoint." data={EVENT_GROUPS.map(({ group, items }) => ({ group, items: [...items] }))} searchable required {...form.getInputProps('events')} />
          <div>
            <Text size="sm" fw={500} id="webhook-version-label">
              Payload version
            </Text>
            <SegmentedControl aria-labelledby="webhook-version-label" data={VERSIONS} {...form.getInputProps('version')} />
          </div>
          {mutation.error && <ErrorAlert title={webhook ? 'The endpoint was not changed' : 'The endpoint was not added'} error={mutation.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {webhook ? 'Save changes' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
