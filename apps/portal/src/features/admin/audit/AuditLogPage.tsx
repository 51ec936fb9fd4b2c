import { Anchor, Button, Center, Group, Loader, Paper, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
// The table and before/after view are the account audit page's own (features/audit).
import { AuditFiltersForm } from '../../audit/components/AuditFiltersForm';
import { AuditTable } from '../../audit/components/AuditTable';
import { ChangesModal } from '../../audit/components/ChangesModal';
import { adminAuditCsvHref, listAdminAuditEvents, type AdminAuditFilters, type AuditEvent } from './api';

function useAdminAuditEvents(filters: AdminAuditFilters) {
  return useInfiniteQuery({
    queryKey: ['admin', 'audit', filters],
    queryFn: ({ pageParam, signal }) => listAdminAuditEvents(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

/** The platform-wide audit log (admins): every account's changes and the staff's own actions, filtered, paged, and as CSV. */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AdminAuditFilters>({});
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const events = useAdminAuditEvents(filters);
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Platform audit log"
        description="Every account’s changes and sign-ins, and what staff did, newest first. Times are in your time zone."
        actions={
          <Group gap="xs">
            <Button component="a" href={adminAuditCsvHref(filters)} download variant="default">
              Download CSV
            </Button>
            <Button variant="default" onClick={() => void events.refetch()} loading={events.isRefetching && !events.isFetchingNextPage}>
              Refresh
            </Button>
          </Group>
        }
      />
      <AuditFiltersForm withAccount onApply={setFilters} />
      {events.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the audit log" />
        </Center>
      )}
      {events.isError && <ErrorAlert title="The audit log could not be loaded" error={events.error} onRetry={() => void events.refetch()} />}
      {events.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>{filtered ? 'No entries match these filters' : 'Nothing recorded yet'}</Text>
          <Text size="sm" c="dimmed">
            {filtered ? 'Try a wider time range or clear the filters.' : 'Changes and sign-ins appear here.'}
          </Text>
        </Paper>
      )}
      {events.isSuccess && rows.length > 0 && (
        <>
          <AuditTable
            events={rows}
            onShowChanges={setShown}
            account={(event) =>
              event.developer_id ? (
                <Anchor component={Link} to={`/admin/developers/${event.developer_id}`} size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {event.developer_id}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  platform
                </Text>
              )
            }
          />
          {events.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
          <Text size="xs" c="dimmed" mt="sm">
            The CSV holds every entry matching the filters, not only those loaded here.
          </Text>
        </>
      )}
      <ChangesModal event={shown} onClose={() => setShown(null)} />
    </>
  );
}
