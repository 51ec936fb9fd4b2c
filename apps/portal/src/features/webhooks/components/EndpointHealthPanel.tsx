import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { Webhook } from '../api';
import { formatSuccessRate } from '../health';
import { EndpointStatusBadge } from './EndpointStatusBadge';

/** How deliveries to the endpoint are going: success rate over the window, last success and failure, the current run. */
export function EndpointHealthPanel({ webhook }: { webhook: Webhook }) {
  const { health } = webhook;
  const lastFailure = health.last_failure_at
    ? `${formatTime(health.last_failure_at)} · ${health.last_failure_error ?? 'failed'}${health.last_failure_status_code !== null ? ` (HTTP ${health.last_failure_status_code})` : ''}`
    : '—';
  return (
    <Paper withBorder p="md" mb="lg" aria-label="Endpoint health" component="section">
      <Title order={2} size="h4" mb="sm">
        Health <EndpointStatusBadge webhook={webhook} />
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Figure
          label={`Success rate, last ${health.window_days} days`}
          value={`${formatSuccessRate(health)}${health.attempts > 0 ? ` of ${health.attempts} attempt${health.attempts === 1 ? '' : 's'}` : ''}`}
          testId="health-success-rate"
        />
        <Figure
          label="Failed deliveries in a row"
          value={`${health.consecutive_failed_deliveries}${health.failing_since ? ` · failing since ${formatTime(health.failing_since)}` : ''}`}
          testId="health-run"
        />
        <Figure label="Last success" value={formatTime(health.last_success_at)} testId="health-last-success" />
        <Figure label="Last failure" value={lastFailure} testId="health-last-failure" />
        {webhook.disabled_at && <Figure label="Disabled" value={`${formatTime(webhook.disabled_at)} · after its deliveries kept failing`} testId="health-disabled-at" />}
      </SimpleGrid>
    </Paper>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
