import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

export interface SigningSecretModalProps {
  /** The secret as the API returned it once; null closes the modal. */
  secret: string | null;
  onClose: () => void;
}

/** An endpoint's signing secret, the one time the API reveals it (created or rotated); kept nowhere else. */
export function SigningSecretModal({ secret, onClose }: SigningSecretModalProps) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Signing secret" closeOnClickOutside={false} size="lg">
      <Stack>
        <Alert color="yellow" title="Copy it now">
          This is the only time the secret is shown. Your receiver checks every delivery&apos;s X-Gateway-Signature with it; store it with your other secrets.
        </Alert>
        <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
        <Text size="xs" c="dimmed">
          Lost it? Rotate the secret to get a new one.
        </Text>
      </Stack>
    </Modal>
  );
}
