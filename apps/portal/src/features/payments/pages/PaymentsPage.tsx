import { Button, Center, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { PaymentFilters } from '../api';
import { PaymentFiltersForm } from '../components/PaymentFiltersForm';
import { PaymentsTable } from '../components/PaymentsTable';
import { usePayments } from '../hooks/usePayments';

/** The session mode's payments, newest first, filtered and paged; a reference opens the payment. */
export function PaymentsPage() {
  const me = useMe();
  const [filters, setFilters] = useState<PaymentFilters>({});
  const payments = usePayments(filters);
  const mode = me.data?.session.mode ?? 'test';
  const rows = payments.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Payments"
        description={`Payments taken in ${mode} mode, newest first.`}
        actions={
          <Button variant="default" onClick={() => void payments.refetch()} loading={payments.isRefetching && !payments.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      <PaymentFiltersForm onApply={setFilters} />
      {payments.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading payments" />
        </Center>
      )}
      {payments.isError && <ErrorAlert title="The payments could not be loaded" error={payments.error} onRetry={() => void payments.refetch()} />}
      {payments.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>{filtered ? 'No payments match these filters' : `No ${mode} payments yet`}</Text>
          <Text size="sm" c="dimmed">
            {filtered ? 'Try a wider time range or clear the filters.' : 'Payments you initialize with your keys appear here.'}
          </Text>
        </Paper>
      )}
      {payments.isSuccess && rows.length > 0 && (
        <>
          <PaymentsTable payments={rows} />
          {payments.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void payments.fetchNextPage()} loading={payments.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
    </>
  );
}
