import { Anchor, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { LedgerTable } from '../../wallet';
import { isApiError } from '../../../shared/api-client';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { RequestLogDetails } from '../components/RequestLogDetails';
import { TracedEvents } from '../components/TracedEvents';
import { useRequestTrace } from '../hooks/useRequestTrace';

function BackLink() {
  return (
    <Anchor component={Link} to="/request-logs" size="sm">
      ← All requests
    </Anchor>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/**
 * What one request did (`#/request-logs/<request id>`): its log entry, the ledger entries it
 * posted, and the events it emitted with each delivery and attempt — read again while it settles.
 */
export function RequestTracePage() {
  const { requestId = '' } = useParams();
  const trace = useRequestTrace(requestId);
  const refresh = (
    <Button variant="default" onClick={() => void trace.refetch()} loading={trace.isRefetching}>
      Refresh
    </Button>
  );

  if (trace.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the trace" />
      </Center>
    );
  }
  if (trace.isError) {
    const missing = isApiError(trace.error) && (trace.error.status === 404 || trace.error.status === 400);
    return (
      <>
        <PageHeader title={missing ? 'Request not found' : 'Request trace'} actions={refresh} />
        {missing ? (
          <Paper withBorder p="xl" ta="center">
            <Text>No request with this ID has left a trace in this account and mode yet.</Text>
            <Text size="sm" c="dimmed">
              A request appears a second or so after it was answered.
            </Text>
            <BackLink />
          </Paper>
        ) : (
          <ErrorAlert title="The trace could not be loaded" error={trace.error} onRetry={() => void trace.refetch()} />
        )}
      </>
    );
  }
  const { request, ledger_entries: ledgerEntries, events, events_truncated: eventsTruncated } = trace.data;

  return (
    <>
      <PageHeader
        title="Request trace"
        description={
          <Text component="span" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {requestId}
          </Text>
        }
        actions={refresh}
      />
      <Stack gap="xl">
        <BackLink />
        <Section title="Request">
          {request ? (
            <RequestLogDetails log={request} />
          ) : (
            <Empty>The log entry is not written yet (requests are logged a second or so after they are answered), or it was deleted after 90 days.</Empty>
          )}
        </Section>
        <Section title="Ledger entries">
          {ledgerEntries.length > 0 ? <LedgerTable entries={ledgerEntries} /> : <Empty>This request moved no money.</Empty>}
        </Section>
        <Section title="Events">
          {events.length > 0 ? <TracedEvents events={events} /> : <Empty>This request emitted no events.</Empty>}
          {eventsTruncated && (
            <Text size="sm" c="dimmed" mt="sm">
              Only the first {events.length} events are shown.
            </Text>
          )}
        </Section>
      </Stack>
    </>
  );
}
