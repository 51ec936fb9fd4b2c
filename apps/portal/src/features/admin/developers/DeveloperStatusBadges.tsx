import { Badge, Group } from '@mantine/core';
import type { DeveloperStatus } from './api';

/** Suspended or active, and which verifications are done: what decides which modes the account may use. */
export function DeveloperStatusBadges({ status, emailVerified, identityVerified }: { status: DeveloperStatus; emailVerified: boolean; identityVerified: boolean }) {
  return (
    <Group gap={4} wrap="wrap">
      <Badge color={status === 'suspended' ? 'red' : 'green'} variant="light" miw="max-content">
        {status}
      </Badge>
      <Badge color={emailVerified ? 'blue' : 'gray'} variant="light" miw="max-content">
        {emailVerified ? 'e-mail verified' : 'e-mail not verified'}
      </Badge>
      <Badge color={identityVerified ? 'blue' : 'gray'} variant="light" miw="max-content">
        {identityVerified ? 'identity verified' : 'identity not verified'}
      </Badge>
    </Group>
  );
}
