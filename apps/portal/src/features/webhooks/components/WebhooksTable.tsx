import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import type { Webhook } from '../api';
import { formatSuccessRate } from '../health';
import { EndpointStatusBadge } from './EndpointStatusBadge';

/** The account's endpoints with their health; a URL opens the endpoint (details, actions, delivery logs). */
export function WebhooksTable({ webhooks }: { webhooks: Webhook[] }) {
  return (
    <Table.ScrollContainer minWidth={840}>
      <Table striped highlightOnHover aria-label="Webhook endpoints">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Health</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((webhook) => (
            <Table.Tr key={webhook.id}>
              <Table.Td>
                <Anchor component={Link} to={`/webhooks/${webhook.id}`} style={{ wordBreak: 'break-all' }}>
                  {webhook.url}
                </Anchor>
                <Text size="xs" c="dimmed" ff="monospace">
                  {webhook.id}
                </Text>
              </Table.Td>
              <Table.Td>
                <EndpointStatusBadge webhook={webhook} />
                <Text size="xs" c="dimmed" title={`Attempts that succeeded over the last ${webhook.health.window_days} days`}>
                  {formatSuccessRate(webhook.health)} success
                  {webhook.health.consecutive_failed_deliveries > 0 && ` · ${webhook.health.consecutive_failed_deliveries} failed in a row`}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {webhook.events.map((event) => (
                    <Badge key={event} variant="light" size="sm" tt="none">
                      {event}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{webhook.webhook_version}</Table.Td>
              <Table.Td>{formatTime(webhook.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
