import { Button, Center, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { RequestLog, RequestLogFilters } from '../api';
import { RequestLogDrawer } from '../components/RequestLogDrawer';
import { RequestLogFiltersForm } from '../components/RequestLogFiltersForm';
import { RequestLogsTable } from '../components/RequestLogsTable';
import { useRequestLogs } from '../hooks/useRequestLogs';

/** The session mode's merchant API requests, newest first, filtered and paged; a row opens its details. Read-only for every role. */
export function RequestLogsPage() {
  const me = useMe();
  const [filters, setFilters] = useState<RequestLogFilters>({});
  const [open, setOpen] = useState<RequestLog | null>(null);
  const logs = useRequestLogs(filters);
  const mode = me.data?.session.mode ?? 'test';
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Request logs"
        description={`Requests to the API with your ${mode} keys, newest first. Bodies are stored with secrets redacted.`}
        actions={
          <Button variant="default" onClick={() => void logs.refetch()} loading={logs.isRefetching && !logs.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      <RequestLogFiltersForm onApply={setFilters} />
      {logs.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading request logs" />
        </Center>
      )}
      {logs.isError && <ErrorAlert title="The request logs could not be loaded" error={logs.error} onRetry={() => void logs.refetch()} />}
      {logs.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>{filtered ? 'No requests match these filters' : `No ${mode} requests yet`}</Text>
          <Text size="sm" c="dimmed">
            {filtered ? 'Try a wider time range or clear the filters.' : 'Requests made with your keys appear here within a few seconds.'}
          </Text>
        </Paper>
      )}
      {logs.isSuccess && rows.length > 0 && (
        <>
          <RequestLogsTable logs={rows} onOpen={setOpen} />
          {logs.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void logs.fetchNextPage()} loading={logs.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
      <RequestLogDrawer log={open} onClose={() => setOpen(null)} />
    </>
  );
}
