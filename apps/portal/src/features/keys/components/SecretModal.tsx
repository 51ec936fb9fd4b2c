import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

export interface SecretModalProps {
  /** The key as the API returned it once; null closes the modal. */
  secret: string | null;
  onClose: () => void;
}

/** Shows a new key's secret the one time the API reveals it; it is kept nowhere else. */
export function SecretModal({ secret, onClose }: SecretModalProps) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Your new key" closeOnClickOutside={false} size="lg">
      <Stack>
        <Alert color="yellow" title="Copy it now">
          This is the only time the key is shown. Store it in your secret manager; the portal cannot show it again.
        </Alert>
        <Code block data-testid="new-key-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
        <Text size="xs" c="dimmed">
          Lost it? Rotate the key to get a new one.
        </Text>
      </Stack>
    </Modal>
  );
}
