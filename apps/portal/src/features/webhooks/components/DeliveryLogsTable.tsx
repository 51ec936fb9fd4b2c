import { Badge, Button, Table, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { WebhookLog } from '../api';

export interface DeliveryLogsTableProps {
  logs: WebhookLog[];
  /** False for viewers: no retry buttons. */
  canManage: boolean;
  /** The log whose retry is running, if any. */
  retrying?: string;
  onRetry: (log: WebhookLog) => void;
}

/** Every attempt to one endpoint, newest first: outcome, status, why it failed, latency; retry. */
export function DeliveryLogsTable({ logs, canManage, retrying, onRetry }: DeliveryLogsTableProps) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped aria-label="Delivery logs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Attempt</Table.Th>
            <Table.Th>Result</Table.Th>
            <Table.Th>Response</Table.Th>
            <Table.Th>Latency</Table.Th>
            {canManage && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((log) => (
            <Table.Tr key={log.log_id} data-log-id={log.log_id}>
              <Table.Td>{formatTime(log.created_at)}</Table.Td>
              <Table.Td>
                <Text size="sm">{log.event}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {log.event_id}
                </Text>
              </Table.Td>
              <Table.Td>
                #{log.attempt} · {log.trigger}
              </Table.Td>
              <Table.Td>
                <Badge color={log.success ? 'green' : 'red'} variant="light">
                  {log.success ? 'Delivered' : 'Failed'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{log.status_code === null ? 'No answer' : `HTTP ${log.status_code}`}</Text>
                {log.error && (
                  <Text size="xs" c="dimmed">
                    {log.error}
                  </Text>
                )}
                {log.response_body && (
                  <Text size="xs" c="dimmed" lineClamp={2} style={{ wordBreak: 'break-all' }}>
                    {log.response_body}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{log.latency_ms} ms</Table.Td>
              {canManage && (
                <Table.Td>
                  <Button size="xs" variant="light" onClick={() => onRetry(log)} loading={retrying === log.log_id} aria-label={`Retry ${log.event} attempt ${log.attempt}`}>
                    Retry
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
