import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface OneTimeSecretModalProps {
  /** The secret as the API returned it, once; null closes the modal. */
  secret: string | null;
  onClose: () => void;
  title: string;
  /** What it is, for the buttons and the last line: `key` → "Copy key", "Rotate the key…". */
  noun: string;
  /** Why it matters and where to keep it, under "Copy it now". */
  advice: ReactNode;
  testId: string;
}

/** A secret the API reveals only once (an API key, a webhook signing secret): shown, copyable, kept nowhere else. */
export function OneTimeSecretModal({ secret, onClose, title, noun, advice, testId }: OneTimeSecretModalProps) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} closeOnClickOutside={false} size="lg">
      <Stack>
        <Alert color="yellow" title="Copy it now">
          {advice}
        </Alert>
        <Code block data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : `Copy ${noun}`}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
        <Text size="xs" c="dimmed">
          Lost it? Rotate the {noun} to get a new one.
        </Text>
      </Stack>
    </Modal>
  );
}
