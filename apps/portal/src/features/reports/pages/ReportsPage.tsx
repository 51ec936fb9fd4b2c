import { Button, Center, Loader, Paper, Text, Title } from '@mantine/core';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { ExportsTable } from '../components/ExportsTable';
import { RequestExportForm } from '../components/RequestExportForm';
import { useExports } from '../hooks/useExports';
import { canRequestExports } from '../permissions';

/**
 * CSV exports of the session mode's payments, refunds, ledger and more: request one, watch it being
 * written, download it (through the portal's route, with the session) until it expires.
 */
export function ReportsPage() {
  const me = useMe();
  const mode = me.data?.session.mode ?? 'test';
  const canRequest = canRequestExports(me.data?.account?.role);
  const exports = useExports();
  const rows = exports.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <>
      <PageHeader
        title="Reports"
        description={`CSV exports of your ${mode} data. Exports run in the background (above 100,000 rows you are also e-mailed when one is ready); files are kept for 7 days.`}
        actions={
          <Button variant="default" onClick={() => void exports.refetch()} loading={exports.isRefetching && !exports.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      {canRequest && (
        <section aria-labelledby="request-export-heading">
          <Title order={2} size="h4" mb="sm" id="request-export-heading">
            Request an export
          </Title>
          <RequestExportForm />
        </section>
      )}
      <section aria-labelledby="exports-heading">
        <Title order={2} size="h4" mt="md" mb="sm" id="exports-heading">
          Exports
        </Title>
        {exports.isPending && (
          <Center py="xl">
            <Loader aria-label="Loading exports" />
          </Center>
        )}
        {exports.isError && <ErrorAlert title="The exports could not be loaded" error={exports.error} onRetry={() => void exports.refetch()} />}
        {exports.isSuccess && rows.length === 0 && (
          <Paper withBorder p="xl" ta="center">
            <Text fw={600}>No {mode} exports yet</Text>
            <Text size="sm" c="dimmed">
              {canRequest ? 'Request one above: it appears here with its progress.' : 'Exports requested by your team appear here.'}
            </Text>
          </Paper>
        )}
        {exports.isSuccess && rows.length > 0 && (
          <>
            <ExportsTable exports={rows} />
            {exports.hasNextPage && (
              <Center mt="md">
                <Button variant="default" onClick={() => void exports.fetchNextPage()} loading={exports.isFetchingNextPage}>
                  Load more
                </Button>
              </Center>
            )}
          </>
        )}
      </section>
    </>
  );
}
