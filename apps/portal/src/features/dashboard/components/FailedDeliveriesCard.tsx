import { Anchor, Center, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { useRecentFailedDeliveries } from '../hooks/useDashboard';

/**
 * The newest failed webhook attempts of the session's mode, across the account's endpoints. Each
 * links to its endpoint's delivery log, where people who manage webhooks retry it.
 */
export function FailedDeliveriesCard({ mode }: { mode: string }) {
  const failed = useRecentFailedDeliveries();

  return (
    <section aria-labelledby="failed-deliveries-heading" data-testid="failed-deliveries">
      <Title order={2} size="h4" mt="xl" mb="sm" id="failed-deliveries-heading">
        Failed webhook deliveries
      </Title>
      {failed.isPending && (
        <Center py="md">
          <Loader size="sm" aria-label="Loading failed webhook deliveries" />
        </Center>
      )}
      {failed.isError && <ErrorAlert title="The failed deliveries could not be loaded" error={failed.error} onRetry={() => void failed.refetch()} />}
      {failed.isSuccess && failed.data.rows.length === 0 && (
        <Paper withBorder p="md" ta="center">
          <Text fw={600}>No failed {mode} deliveries</Text>
          <Text size="sm" c="dimmed">
            Every recent webhook attempt was answered with a 2xx.
          </Text>
        </Paper>
      )}
      {failed.isSuccess && failed.data.rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Failed webhook deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Response</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {failed.data.rows.map((row) => (
                  <Table.Tr key={row.log_id} data-log-id={row.log_id}>
                    <Table.Td>{formatTime(row.created_at)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/webhooks/${row.webhook_id}`} size="sm" style={{ wordBreak: 'break-all' }}>
                        {row.endpoint_url ?? row.webhook_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.event}</Text>
                      <Text size="xs" c="dimmed">
                        Attempt #{row.attempt} · {row.trigger}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.status_code === null ? 'No answer' : `HTTP ${row.status_code}`}</Text>
                      {row.error && (
                        <Text size="xs" c="dimmed">
                          {row.error}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="xs" c="dimmed">
            {failed.data.hasMore ? 'The newest failures. ' : ''}Each endpoint’s delivery log has every attempt; developers, admins and owners retry a delivery there.
          </Text>
        </>
      )}
    </section>
  );
}
