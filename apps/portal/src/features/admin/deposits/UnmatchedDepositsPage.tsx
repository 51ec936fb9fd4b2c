import { Badge, Button, Center, Loader, Paper, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { listUnmatchedDeposits } from './api';

function useUnmatchedDeposits() {
  return useInfiniteQuery({
    queryKey: ['admin', 'unmatched-deposits'],
    queryFn: ({ pageParam, signal }) => listUnmatchedDeposits(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

/** Bank transfers that reached the platform's provider account but matched no virtual account, to trace by hand. */
export function UnmatchedDepositsPage() {
  const deposits = useUnmatchedDeposits();
  const rows = deposits.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader
        title="Unmatched deposits"
        description="Transfers into dedicated accounts that matched no virtual account (every mode and account), newest first. The money is in the platform's provider account but in no wallet."
        actions={
          <Button variant="default" onClick={() => void deposits.refetch()} loading={deposits.isRefetching && !deposits.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      {deposits.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading unmatched deposits" />
        </Center>
      )}
      {deposits.isError && <ErrorAlert title="The unmatched deposits could not be loaded" error={deposits.error} onRetry={() => void deposits.refetch()} />}
      {deposits.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No unmatched deposits</Text>
          <Text size="sm" c="dimmed">
            Every transfer into a dedicated account found its virtual account.
          </Text>
        </Paper>
      )}
      {deposits.isSuccess && rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={860}>
            <Table striped aria-label="Unmatched deposits">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Paid</Table.Th>
                  <Table.Th>Reference</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>To account number</Table.Th>
                  <Table.Th>Sender</Table.Th>
                  <Table.Th>Mode</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.reference}>
                    <Table.Td>{formatTime(d.paid_at)}</Table.Td>
                    <Table.Td ff="monospace" fz="sm" style={{ wordBreak: 'break-all' }}>
                      {d.reference}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(d.amount, d.currency)}
                      {d.provider_fee !== null && (
                        <Text size="xs" c="dimmed">
                          provider fee {formatMoney(d.provider_fee, d.currency)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ff="monospace">{d.account_number ?? 'not reported'}</Table.Td>
                    <Table.Td>
                      {d.sender_name ?? 'Unknown sender'}
                      {d.sender_bank && (
                        <Text size="xs" c="dimmed">
                          {d.sender_bank}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={d.mode === 'live' ? 'green' : 'orange'} miw="max-content">
                        {d.mode}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {deposits.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void deposits.fetchNextPage()} loading={deposits.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
    </>
  );
}
