import { Anchor, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import type { TracedDelivery, TracedEvent } from '../api';

const DELIVERY_STATUS: Record<TracedDelivery['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  delivered: { label: 'Delivered', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

function Delivery({ event, delivery }: { event: TracedEvent; delivery: TracedDelivery }) {
  const status = DELIVERY_STATUS[delivery.status];
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
        <Anchor component={Link} to={`/webhooks/${encodeURIComponent(delivery.webhook_id)}`} size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {delivery.url}
        </Anchor>
      </Group>
      {delivery.attempts.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not attempted yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={`Attempts to deliver ${event.event} to ${delivery.url}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Attempt</Table.Th>
                <Table.Th>Result</Table.Th>
                <Table.Th>Response</Table.Th>
                <Table.Th>Latency</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {delivery.attempts.map((attempt) => (
                <Table.Tr key={attempt.log_id}>
                  <Table.Td>{formatTime(attempt.created_at)}</Table.Td>
                  <Table.Td>
                    #{attempt.attempt} · {attempt.trigger}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={attempt.success ? 'green' : 'red'} variant="light">
                      {attempt.success ? 'Delivered' : 'Failed'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`}</Text>
                    {attempt.error && (
                      <Text size="xs" c="dimmed">
                        {attempt.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{attempt.latency_ms} ms</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** The events a request emitted, oldest first: each with its delivery to every endpoint and every attempt. */
export function TracedEvents({ events }: { events: TracedEvent[] }) {
  return (
    <Stack>
      {events.map((event) => (
        <Paper key={event.id} withBorder p="md" data-event-id={event.id}>
          <Stack gap="sm">
            <div>
              <Text fw={600}>{event.event}</Text>
              <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {event.id} · {formatTime(event.created_at)}
              </Text>
            </div>
            {event.deliveries.length === 0 ? (
              <Text size="sm" c="dimmed">
                No endpoint was subscribed to this event.
              </Text>
            ) : (
              event.deliveries.map((delivery) => <Delivery key={delivery.webhook_id} event={event} delivery={delivery} />)
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
