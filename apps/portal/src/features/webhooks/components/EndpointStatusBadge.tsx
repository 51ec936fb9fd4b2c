import { Badge } from '@mantine/core';
import type { Webhook } from '../api';
import { healthState } from '../health';

const LOOK = {
  disabled: { color: 'red', label: 'Disabled' },
  failing: { color: 'orange', label: 'Failing' },
  healthy: { color: 'green', label: 'Healthy' },
  idle: { color: 'gray', label: 'Not tried yet' },
} as const;

/** The endpoint's state at a glance: disabled by the gateway, failing now, healthy, or not tried yet. */
export function EndpointStatusBadge({ webhook }: { webhook: Webhook }) {
  const { color, label } = LOOK[healthState(webhook)];
  return (
    <Badge color={color} variant="light" tt="none" data-testid="endpoint-status">
      {label}
    </Badge>
  );
}
