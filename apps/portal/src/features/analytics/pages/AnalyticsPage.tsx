import { Box, Button, Center, Loader, Paper, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { type AnalyticsFilters, AnalyticsFiltersForm } from '../components/AnalyticsFiltersForm';
import { SummaryCards } from '../components/SummaryCards';
import { TopCustomersTable } from '../components/TopCustomersTable';
import { useAnalyticsSummary, useAnalyticsTimeseries, useAnalyticsTopCustomers } from '../hooks/useAnalytics';
import { lastDays } from '../range';

// The charts (recharts) are a chunk of their own: the figures show while it loads.
const AnalyticsCharts = lazy(async () => ({ default: (await import('../components/AnalyticsCharts')).AnalyticsCharts }));

/**
 * The session mode's payment figures over a range of UTC days in one currency: volume, payments,
 * success rate, fees, refunds and net as cards, the top customers, and per day, week or month as charts.
 */
export function AnalyticsPage() {
  const me = useMe();
  const mode = me.data?.session.mode ?? 'test';
  const [filters, setFilters] = useState<AnalyticsFilters>(() => ({ ...lastDays(30), currency: 'NGN', interval: 'day' }));
  const range = { from: filters.from, to: filters.to, currency: filters.currency };
  const summary = useAnalyticsSummary(range);
  const series = useAnalyticsTimeseries({ ...range, interval: filters.interval });
  const topCustomers = useAnalyticsTopCustomers(range);
  const ranking = topCustomers.data?.currencies.find((c) => c.currency === filters.currency);
  const figures = summary.data?.currencies.find((c) => c.currency === filters.currency);
  const points = series.data?.currencies.find((c) => c.currency === filters.currency)?.points ?? [];

  return (
    <>
      <PageHeader
        title="Analytics"
        description={`Your ${mode} payments by UTC day: a payment counts on the day it succeeded or failed, a refund on the day it was processed.`}
        actions={
          <Button
            variant="default"
            onClick={() => {
              void summary.refetch();
              void series.refetch();
              void topCustomers.refetch();
            }}
            loading={summary.isRefetching || series.isRefetching || topCustomers.isRefetching}
          >
            Refresh
          </Button>
        }
      />
      <AnalyticsFiltersForm value={filters} onApply={setFilters} />

      {summary.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the figures" />
        </Center>
      )}
      {summary.isError && <ErrorAlert title="The figures could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />}
      {summary.isSuccess && (
        <section aria-labelledby="analytics-summary-heading">
          <Title order={2} size="h4" mb="sm" id="analytics-summary-heading">
            {filters.currency}, {summary.data.from} to {summary.data.to} (UTC)
          </Title>
          {figures && figures.count + figures.refunds_count > 0 ? (
            <>
              <SummaryCards figures={figures} />
              <Title order={3} size="h5" mb="xs">
                Top customers
              </Title>
              <Box mb="xl">
                {topCustomers.isPending && <Loader size="sm" aria-label="Loading the top customers" />}
                {topCustomers.isError && <ErrorAlert title="The top customers could not be loaded" error={topCustomers.error} onRetry={() => void topCustomers.refetch()} />}
                {ranking && <TopCustomersTable ranking={ranking} />}
              </Box>
            </>
          ) : (
            <Paper withBorder p="xl" ta="center" mb="xl">
              <Text fw={600}>
                No {mode} {filters.currency} payments in this range
              </Text>
              <Text size="sm" c="dimmed">
                Choose another range or currency.
              </Text>
            </Paper>
          )}
        </section>
      )}

      <section aria-labelledby="analytics-series-heading">
        <Title order={2} size="h4" mb="sm" id="analytics-series-heading">
          Over time
        </Title>
        {series.isPending && (
          <Center py="xl">
            <Loader aria-label="Loading the charts" />
          </Center>
        )}
        {series.isError && <ErrorAlert title="The figures over time could not be loaded" error={series.error} onRetry={() => void series.refetch()} />}
        {series.isSuccess && (
          <Suspense
            fallback={
              <Center h={260}>
                <Loader aria-label="Loading the charts" />
              </Center>
            }
          >
            <AnalyticsCharts points={points} currency={filters.currency} interval={series.data.interval} />
          </Suspense>
        )}
      </section>
    </>
  );
}
