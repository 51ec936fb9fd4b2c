import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** What will happen, in the reader's words. */
  children: ReactNode;
  confirmLabel: string;
  /** Shown above the buttons when the action failed (the API's message stays in the dialog). */
  error: unknown;
  errorTitle: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A destructive action asked twice: removing, withdrawing or revoking cannot be undone from here. */
export function ConfirmModal({ opened, title, children, confirmLabel, error, errorTitle, pending, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        {children}
        {error != null && <ErrorAlert title={errorTitle} error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
