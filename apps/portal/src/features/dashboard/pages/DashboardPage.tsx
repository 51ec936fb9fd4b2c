import { Anchor, Button, Center, Loader, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../auth';
import { PaymentsTable } from '../../payments';
import { BalancesTable } from '../../wallet';
import { PageHeader } from '../../../shared/layout';
import { formatTime } from '../../../shared/format/time';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { FailedDeliveriesCard } from '../components/FailedDeliveriesCard';
import { PeriodSummary } from '../components/PeriodSummary';
import { FAILED_DELIVERIES_QUERY_KEY, useDashboard } from '../hooks/useDashboard';

// The chart (recharts) is a chunk of its own: the figures show while it loads.
const VolumeChart = lazy(async () => ({ default: (await import('../components/VolumeChart')).VolumeChart }));

/**
 * The landing page: the session mode's balances, today's and this month's successful volume and
 * success rate (UTC days), daily volume over 30 days, the newest payments and failed webhook deliveries.
 */
export function DashboardPage() {
  const me = useMe();
  const mode = me.data?.session.mode ?? 'test';
  const dashboard = useDashboard();
  const queryClient = useQueryClient();

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Your ${mode} figures. Days and months are UTC; volume counts successful payments by the time they were created.`}
        actions={
          <Button
            variant="default"
            onClick={() => {
              void dashboard.refetch();
              void queryClient.refetchQueries({ queryKey: FAILED_DELIVERIES_QUERY_KEY });
            }}
            loading={dashboard.isRefetching}
          >
            Refresh
          </Button>
        }
      />
      {dashboard.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the dashboard" />
        </Center>
      )}
      {dashboard.isError && <ErrorAlert title="The dashboard could not be loaded" error={dashboard.error} onRetry={() => void dashboard.refetch()} />}
      {dashboard.isSuccess && (
        <>
          <Text size="xs" c="dimmed" mb="sm">
            As of {formatTime(dashboard.data.as_of)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} mb="xl">
            <PeriodSummary title="Today (UTC)" period={dashboard.data.today} testId="today" />
            <PeriodSummary title="This month (UTC)" period={dashboard.data.this_month} testId="this-month" />
          </SimpleGrid>

          <section aria-labelledby="volume-heading">
            <Title order={2} size="h4" mb="sm" id="volume-heading">
              Daily volume, last 30 days
            </Title>
            <Suspense
              fallback={
                <Center h={260}>
                  <Loader aria-label="Loading the chart" />
                </Center>
              }
            >
              <VolumeChart days={dashboard.data.daily_volume} asOf={dashboard.data.as_of} />
            </Suspense>
          </section>

          <section aria-labelledby="balances-heading">
            <Title order={2} size="h4" mt="xl" mb="sm" id="balances-heading">
              Balances
            </Title>
            <BalancesTable balances={dashboard.data.balances} />
            <Anchor component={Link} to="/wallet" size="sm">
              Wallet and ledger
            </Anchor>
          </section>

          <section aria-labelledby="recent-heading">
            <Title order={2} size="h4" mt="xl" mb="sm" id="recent-heading">
              Recent payments
            </Title>
            {dashboard.data.recent_payments.length === 0 ? (
              <Paper withBorder p="xl" ta="center">
                <Text fw={600}>No {mode} payments yet</Text>
                <Text size="sm" c="dimmed">
                  Create an API key and take a payment: it shows here.
                </Text>
              </Paper>
            ) : (
              <>
                <PaymentsTable payments={dashboard.data.recent_payments} label="Recent payments" />
                <Anchor component={Link} to="/payments" size="sm">
                  All payments
                </Anchor>
              </>
            )}
          </section>

          <FailedDeliveriesCard mode={mode} />
        </>
      )}
    </>
  );
}
