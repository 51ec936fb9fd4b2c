import { Button, Center, Loader, Paper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { LedgerFilters } from '../api';
import { BalancesTable } from '../components/BalancesTable';
import { LedgerFiltersForm } from '../components/LedgerFiltersForm';
import { LedgerTable } from '../components/LedgerTable';
import { useBalances, useLedger } from '../hooks/useWallet';

/** The session mode's wallet: balances per currency and the ledger, each entry linked to what caused it. */
export function WalletPage() {
  const me = useMe();
  const mode = me.data?.session.mode ?? 'test';
  const balances = useBalances();
  const [filters, setFilters] = useState<LedgerFilters>({});
  const ledger = useLedger(filters);
  const rows = ledger.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.values(filters).some(Boolean);
  const refresh = () => void Promise.all([balances.refetch(), ledger.refetch()]);

  return (
    <>
      <PageHeader
        title="Wallet"
        description={`Your ${mode} balances and the ledger entries behind them, newest first. Entries are never changed: corrections are new entries.`}
        actions={
          <Button variant="default" onClick={refresh} loading={(balances.isRefetching || ledger.isRefetching) && !ledger.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      <section aria-labelledby="balances-heading">
        <Title order={2} size="h4" mb="sm" id="balances-heading">
          Balances
        </Title>
        {balances.isPending && (
          <Center py="md">
            <Loader aria-label="Loading balances" />
          </Center>
        )}
        {balances.isError && <ErrorAlert title="The balances could not be loaded" error={balances.error} onRetry={() => void balances.refetch()} />}
        {balances.isSuccess && <BalancesTable balances={balances.data} />}
      </section>
      <section aria-labelledby="ledger-heading">
        <Title order={2} size="h4" mt="xl" mb="sm" id="ledger-heading">
          Ledger
        </Title>
        <LedgerFiltersForm onApply={setFilters} />
        {ledger.isPending && (
          <Center py="xl">
            <Loader aria-label="Loading ledger entries" />
          </Center>
        )}
        {ledger.isError && <ErrorAlert title="The ledger could not be loaded" error={ledger.error} onRetry={() => void ledger.refetch()} />}
        {ledger.isSuccess && rows.length === 0 && (
          <Paper withBorder p="xl" ta="center">
            <Text fw={600}>{filtered ? 'No entries match these filters' : `No ${mode} ledger entries yet`}</Text>
            <Text size="sm" c="dimmed">
              {filtered ? 'Try a wider time range or clear the filters.' : 'Successful payments, fees and refunds appear here.'}
            </Text>
          </Paper>
        )}
        {ledger.isSuccess && rows.length > 0 && (
          <>
            <LedgerTable entries={rows} />
            {ledger.hasNextPage && (
              <Center mt="md">
                <Button variant="default" onClick={() => void ledger.fetchNextPage()} loading={ledger.isFetchingNextPage}>
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
