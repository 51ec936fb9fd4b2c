import { Anchor, Button, Center, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CURRENCIES } from '../../../shared/currencies';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { getOverview, getTimeseries, type Mode, type Overview, type OverviewCurrency, type TimeseriesFilters } from './api';
import { VolumeSeriesChart } from './VolumeSeriesChart';

const MODES: { value: Mode; label: string }[] = [
  { value: 'live', label: 'Live' },
  { value: 'test', label: 'Test' },
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
const rate = (value: number | null) => (value === null ? '—' : percent.format(value));

/** The platform at a glance: each mode's payments today and over 30 days, the approval queue, API error rates, and a volume chart. */
export function OverviewPage() {
  const [mode, setMode] = useState<Mode>('live');
  const overview = useQuery({ queryKey: ['admin', 'overview'], queryFn: ({ signal }) => getOverview(signal) });

  return (
    <>
      <PageHeader
        title="Platform overview"
        description={overview.data ? `Every account, as of ${formatTime(overview.data.as_of)}. Days are UTC days.` : 'Every account. Days are UTC days.'}
        actions={
          <Button variant="default" onClick={() => void overview.refetch()} loading={overview.isRefetching}>
            Refresh
          </Button>
        }
      />
      <SegmentedControl aria-label="Mode" data={MODES} value={mode} onChange={(value) => setMode(value as Mode)} mb="md" />
      {overview.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the overview" />
        </Center>
      )}
      {overview.isError && <ErrorAlert title="The overview could not be loaded" error={overview.error} onRetry={() => void overview.refetch()} />}
      {overview.isSuccess && <OverviewFigures overview={overview.data} mode={mode} />}
      <VolumeSection mode={mode} />
    </>
  );
}

function OverviewFigures({ overview, mode }: { overview: Overview; mode: Mode }) {
  const figures = overview.modes.find((m) => m.mode === mode);
  const pending = overview.settlements_pending_approval.filter((p) => p.mode === mode);
  const errors = overview.api_errors_24h;
  return (
    <Stack gap="xl" mb="xl">
      <section aria-labelledby="payments-heading">
        <Title order={2} size="h4" mb="sm" id="payments-heading">
          Payments ({mode} mode)
        </Title>
        {figures && <PaymentsTable today={figures.today} month={figures.last_30_days} mode={mode} />}
      </section>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="md" component="section" aria-labelledby="pending-heading">
          <Title order={2} size="h4" mb="xs" id="pending-heading">
            Settlements waiting for approval
          </Title>
          {pending.length === 0 ? (
            <Text size="sm" c="dimmed">
              None in {mode} mode.
            </Text>
          ) : (
            pending.map((p) => (
              <Text key={p.currency} fw={600} data-testid={`pending-${p.currency}`}>
                {p.count} · {formatMoney(p.amount, p.currency)}
              </Text>
            ))
          )}
          <Anchor component={Link} to="/admin/settlements" size="sm">
            Open the approval queue
          </Anchor>
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="errors-heading">
          <Title order={2} size="h4" mb="xs" id="errors-heading">
            API errors, last 24 hours
          </Title>
          <Text size="sm">
            {errors.requests.toLocaleString()} request{errors.requests === 1 ? '' : 's'} (every mode)
          </Text>
          <Text size="sm">
            4xx: <strong>{rate(errors.client_error_rate)}</strong> ({errors.client_errors.toLocaleString()})
          </Text>
          <Text size="sm">
            5xx: <strong>{rate(errors.server_error_rate)}</strong> ({errors.server_errors.toLocaleString()})
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

function PaymentsTable({ today, month, mode }: { today: OverviewCurrency[]; month: OverviewCurrency[]; mode: Mode }) {
  const rows = CURRENCIES.map((currency) => ({ currency, today: today.find((c) => c.currency === currency), month: month.find((c) => c.currency === currency) })).filter(
    (row) => row.currency === 'NGN' || (row.month?.count ?? 0) > 0,
  );
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table striped aria-label={`Payments in ${mode} mode`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Volume today</Table.Th>
            <Table.Th ta="right">Payments today</Table.Th>
            <Table.Th ta="right">Volume, 30 days</Table.Th>
            <Table.Th ta="right">Payments, 30 days</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.currency}>
              <Table.Td>{row.currency}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(row.today?.volume ?? 0, row.currency)}
              </Table.Td>
              <Table.Td ta="right">{outcomes(row.today)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(row.month?.volume ?? 0, row.currency)}
              </Table.Td>
              <Table.Td ta="right">{outcomes(row.month)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function outcomes(figures: OverviewCurrency | undefined) {
  if (!figures || figures.count === 0) return '0';
  return (
    <>
      {figures.count}
      <Text size="xs" c="dimmed">
        {figures.succeeded} paid · {figures.failed} failed · {figures.abandoned} abandoned
      </Text>
    </>
  );
}

function VolumeSection({ mode }: { mode: Mode }) {
  const [currency, setCurrency] = useState<string>('NGN');
  const [developerId, setDeveloperId] = useState('');
  const account = developerId.trim();
  const validAccount = account === '' || UUID.test(account);
  const filters: TimeseriesFilters = { mode, currency, ...(account && validAccount ? { developer_id: account } : {}) };
  const series = useQuery({ queryKey: ['admin', 'analytics', 'timeseries', filters], queryFn: ({ signal }) => getTimeseries(filters, signal), enabled: validAccount });
  return (
    <section aria-labelledby="volume-heading">
      <Title order={2} size="h4" mb="sm" id="volume-heading">
        Volume, last 30 days
      </Title>
      <Group align="flex-start" gap="sm" mb="sm" wrap="wrap">
        <Select label="Currency" data={[...CURRENCIES]} value={currency} onChange={(value) => value && setCurrency(value)} allowDeselect={false} w={140} />
        <TextInput
          label="Account (developer id)"
          placeholder="Every account"
          value={developerId}
          onChange={(event) => setDeveloperId(event.currentTarget.value)}
          error={validAccount ? undefined : 'A developer id (from the developers page)'}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
        />
      </Group>
      {series.isPending && validAccount && (
        <Center py="md">
          <Loader aria-label="Loading the volume chart" />
        </Center>
      )}
      {series.isError && <ErrorAlert title="The volume could not be loaded" error={series.error} onRetry={() => void series.refetch()} />}
      {series.isSuccess && <VolumeSeriesChart series={series.data} />}
    </section>
  );
}
