import { Anchor, Badge, Table, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { RequestLog } from '../api';

export function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  if (status >= 300) return 'blue';
  return 'green';
}

export interface RequestLogsTableProps {
  logs: RequestLog[];
  onOpen: (log: RequestLog) => void;
}

export function RequestLogsTable({ logs, onOpen }: RequestLogsTableProps) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover aria-label="Request logs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Path</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>Request ID</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((log) => (
            // The whole row opens the details for a pointer; the request id is the keyboard's way in.
            <Table.Tr key={log.id} onClick={() => onOpen(log)} style={{ cursor: 'pointer' }}>
              <Table.Td>{formatTime(log.created_at)}</Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {log.method}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                  {log.path}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={statusColor(log.status_code)} variant="light">
                  {log.status_code}
                </Badge>
              </Table.Td>
              <Table.Td>{log.duration_ms} ms</Table.Td>
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  ff="monospace"
                  size="sm"
                  aria-label={`Details of request ${log.request_id}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(log);
                  }}
                >
                  {log.request_id}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
