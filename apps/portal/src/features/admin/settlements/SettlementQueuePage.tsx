import { Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { usePlatformAccess } from '../permissions';
import type { AdminSettlement } from './api';
import { usePendingSettlements, useRecentSettlements } from './hooks';
import { SettlementCard } from './SettlementCard';
import { ApproveModal, RejectModal } from './SettlementDecisionModals';

/** Shown per account under each request: the last few of its other settlements. */
const HISTORY_ROWS = 5;

/**
 * Withdrawals waiting for staff approval (every account, live mode), with what decides them: the
 * requester, the account's available balance and recent settlements, and the two-person rule.
 */
export function SettlementQueuePage() {
  const { me, can } = usePlatformAccess();
  const pending = usePendingSettlements();
  const recent = useRecentSettlements();
  const [approving, setApproving] = useState<AdminSettlement | null>(null);
  const [rejecting, setRejecting] = useState<AdminSettlement | null>(null);
  const rows = pending.data?.pages.flatMap((page) => page.data) ?? [];
  const canDecide = can('platform:settlements:approve');

  const historyOf = (s: AdminSettlement) =>
    recent.data?.data.filter((other) => other.developer_id === s.developer_id && other.reference !== s.reference).slice(0, HISTORY_ROWS);

  return (
    <>
      <PageHeader
        title="Settlement approvals"
        description="Withdrawals waiting for approval. Nobody approves their own request; above the two-person threshold two different people must approve."
        actions={
          <Button variant="default" onClick={() => void Promise.all([pending.refetch(), recent.refetch()])} loading={pending.isRefetching && !pending.isFetchingNextPage}>
            Refresh
          </Button>
        }
      />
      {pending.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the approval queue" />
        </Center>
      )}
      {pending.isError && <ErrorAlert title="The approval queue could not be loaded" error={pending.error} onRetry={() => void pending.refetch()} />}
      {recent.isError && <ErrorAlert title="The accounts' settlement history could not be loaded" error={recent.error} onRetry={() => void recent.refetch()} />}
      {pending.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No withdrawals waiting for approval</Text>
          <Text size="sm" c="dimmed">
            Requested withdrawals, and automatic ones above the auto-approval limit, appear here.
          </Text>
        </Paper>
      )}
      {pending.isSuccess && rows.length > 0 && (
        <Stack>
          {rows.map((s) => (
            <SettlementCard key={s.reference} settlement={s} history={historyOf(s)} myEmail={me?.email ?? ''} canDecide={canDecide} onApprove={setApproving} onReject={setRejecting} />
          ))}
          {pending.hasNextPage && (
            <Center>
              <Button variant="default" onClick={() => void pending.fetchNextPage()} loading={pending.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </Stack>
      )}
      <ApproveModal settlement={approving} onClose={() => setApproving(null)} />
      <RejectModal settlement={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
