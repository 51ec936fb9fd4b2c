import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';

export interface StaffActionModalProps {
  opened: boolean;
  title: string;
  /** What will happen, in the reader's words. */
  children: ReactNode;
  /** The text kept with the action: a note (optional) or a reason (required); none without a label. */
  textLabel?: string;
  textDescription?: string;
  textRequired?: boolean;
  confirmLabel: string;
  color?: string;
  pending: boolean;
  error: unknown;
  errorTitle: string;
  onConfirm: (text: string | undefined) => void;
  onClose: () => void;
}

/** A staff action on an account, asked once more, with a note or reason for the audit log. */
export function StaffActionModal(props: StaffActionModalProps) {
  const { opened, title, children, textLabel, textDescription, textRequired, confirmLabel, color, pending, error, errorTitle, onConfirm, onClose } = props;
  const form = useForm({
    initialValues: { text: '' },
    validate: {
      text: (value) => (textRequired && !value.trim() ? `Enter a ${(textLabel ?? '').toLowerCase()}` : value.trim().length > 500 ? 'At most 500 characters' : null),
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <form onSubmit={form.onSubmit(({ text }) => onConfirm(text.trim() || undefined))} noValidate>
        <Stack>
          {children}
          {textLabel && (
            <Textarea label={textLabel} description={textDescription} required={textRequired} autosize minRows={2} maxLength={500} data-autofocus {...form.getInputProps('text')} />
          )}
          {error != null && <ErrorAlert title={errorTitle} error={error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={color} loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
