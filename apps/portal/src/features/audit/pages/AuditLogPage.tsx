import { Button, Center, Group, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { auditCsvHref, type AuditEventRow, type AuditFilters } from '../api';
import { AuditFiltersForm } from '../components/AuditFiltersForm';
import { AuditTable } from '../components/AuditTable';
import { ChangesModal } from '../components/ChangesModal';
import { useAuditEvents } from '../hooks/useAuditEvents';
import { canReadAudit } from '../permissions';

/**
 * Who did what in the account (sign-ins, keys, webhooks, team, settings), newest first, filtered and
 * paged, with each change's before and after; the same rows as CSV. Owners only (`audit:read`).
 */
export function AuditLogPage() {
  const me = useMe();
  const allowed = canReadAudit(me.data?.account?.role);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [shown, setShown] = useState<AuditEventRow | null>(null);
  const events = useAuditEvents(filters, allowed);
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  if (!allowed) {
    return (
      <>
        <PageHeader title="Audit log" />
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>Only the account’s owners see the audit log</Text>
          <Text size="sm" c="dimmed">
            Ask an owner if you need to know who changed something.
          </Text>
        </Paper>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to the account, its keys, webhooks, team and settings, and every sign-in, newest first. Times are in your time zone."
        actions={
          <Group gap="xs">
            <Button component="a" href={auditCsvHref(filters)} download variant="default">
              Download CSV
            </Button>
            <Button variant="default" onClick={() => void events.refetch()} loading={events.isRefetching && !events.isFetchingNextPage}>
              Refresh
            </Button>
          </Group>
        }
      />
      <AuditFiltersForm onApply={setFilters} />
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
            {filtered ? 'Try a wider time range or clear the filters.' : 'Sign-ins and changes to the account appear here.'}
          </Text>
        </Paper>
      )}
      {events.isSuccess && rows.length > 0 && (
        <>
          <AuditTable events={rows} onShowChanges={setShown} />
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
