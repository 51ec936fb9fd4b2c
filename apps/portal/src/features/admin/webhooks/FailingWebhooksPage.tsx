import { Anchor, Badge, Button, Center, Loader, Paper, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { listFailingEndpoints, type FailingEndpoint } from './api';

function useFailingEndpoints() {
  return useInfiniteQuery({
    queryKey: ['admin', 'failing-webhooks'],
    queryFn: ({ pageParam, signal }) => listFailingEndpoints(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

/** The attempt's failure class in words (the API sends a short code, never the receiver's message). */
const ERRORS: Record<string, string> = {
  http_status: 'error status',
  timeout: 'timed out',
  dns: 'host not found',
  refused: 'connection refused',
  tls: 'TLS failure',
  invalid_response: 'invalid response',
  connection: 'connection failed',
  url_not_allowed: 'address not allowed',
  not_sent: 'not sent',
};

function lastError(endpoint: FailingEndpoint): string {
  if (!endpoint.last_error) return '—';
  const label = ERRORS[endpoint.last_error] ?? endpoint.last_error;
  return endpoint.last_status_code !== null ? `${label} (HTTP ${endpoint.last_status_code})` : label;
}

/** Every account's endpoints whose deliveries failed in the last 7 days, the most recently failing first. */
export function FailingWebhooksPage() {
  const endpoints = useFailingEndpoints();
  const rows = endpoints.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader
        title="Failing webhook endpoints"
        description="Endpoints of every account with failed deliveries in the last 7 days. Only the URL's host is shown: its path may hold the account's own tokens."
        actions={
          <Button variant="default" onClick={() => void endpoints.refetch()} loading={endpoints.isRefetching && !endpoints.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      {endpoints.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading failing endpoints" />
        </Center>
      )}
      {endpoints.isError && <ErrorAlert title="The failing endpoints could not be loaded" error={endpoints.error} onRetry={() => void endpoints.refetch()} />}
      {endpoints.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No failed deliveries in the last 7 days</Text>
          <Text size="sm" c="dimmed">
            Every endpoint accepted what it was sent.
          </Text>
        </Paper>
      )}
      {endpoints.isSuccess && rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped aria-label="Failing webhook endpoints">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Mode</Table.Th>
                  <Table.Th ta="right">Failed (7 days)</Table.Th>
                  <Table.Th ta="right">In a row</Table.Th>
                  <Table.Th>Last failure</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>
                      <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                        {e.url_host || 'invalid URL'}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {e.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/developers/${e.developer_id}`}>
                        {e.developer_name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={e.mode === 'live' ? 'green' : 'orange'} miw="max-content">
                        {e.mode}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{e.failed_deliveries}</Table.Td>
                    <Table.Td ta="right">{e.consecutive_failures === 0 ? 'recovered' : e.consecutive_failures}</Table.Td>
                    <Table.Td>
                      {formatTime(e.last_failure_at)}
                      <Text size="xs" c="dimmed">
                        {lastError(e)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {endpoints.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void endpoints.fetchNextPage()} loading={endpoints.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
    </>
  );
}
