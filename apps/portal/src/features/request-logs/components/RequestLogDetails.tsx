import { Badge, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { RequestLog } from '../api';
import { statusColor } from './RequestLogsTable';

function Body({ title, body }: { title: string; body: RequestLog['request_body'] }) {
  return (
    <div>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      {body ? (
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {JSON.stringify(body, null, 2)}
        </Code>
      ) : (
        <Text size="sm" c="dimmed">
          No body
        </Text>
      )}
    </div>
  );
}

/** One logged request in full: method, path, status, the summary and both bodies (redacted when stored, so shown as they are). */
export function RequestLogDetails({ log }: { log: RequestLog }) {
  const details: [string, string][] = [
    ['Time', formatTime(log.created_at)],
    ['Duration', `${log.duration_ms} ms`],
    ['Request ID', log.request_id],
    ['Key', log.api_key_id ?? '—'],
    ['Client IP', log.client_ip ?? '—'],
    ['User agent', log.user_agent ?? '—'],
  ];
  return (
    <Stack>
      <Group gap="xs">
        <Badge color={statusColor(log.status_code)} variant="light">
          {log.status_code}
        </Badge>
        <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
          {log.method} {log.path}
        </Text>
      </Group>
      <Table aria-label="Request summary" withRowBorders={false}>
        <Table.Tbody>
          {details.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" w={120}>
                {label}
              </Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Body title="Request body" body={log.request_body} />
      <Body title="Response body" body={log.response_body} />
    </Stack>
  );
}
