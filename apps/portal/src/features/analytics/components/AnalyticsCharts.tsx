import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import type { AnalyticsInterval, AnalyticsPoint } from '../api';
import { bucketLabel, formatRate } from '../range';

const INTERVAL_NAMES: Record<AnalyticsInterval, string> = { day: 'UTC day', week: 'week (Monday to Sunday, UTC)', month: 'month (UTC)' };

/**
 * The range's figures per bucket in one currency: volume and net, fees and refunds, and payment
 * counts. The API's exact figures are only plotted, never added up here. A hidden table carries the
 * same figures for screen readers. Lives in the page's lazily loaded chunk, with recharts.
 */
export function AnalyticsCharts({ points, currency, interval }: { points: AnalyticsPoint[]; currency: string; interval: AnalyticsInterval }) {
  const data = points.map((p) => ({
    label: bucketLabel(p.start, p.end),
    volume: Number(p.volume),
    net: Number(p.net),
    fees: Number(p.fees),
    refunds: Number(p.refunds),
    succeeded: p.succeeded,
    unsuccessful: p.failed + p.abandoned,
  }));
  const money = (value: number) => formatMoney(value, currency);
  const per = INTERVAL_NAMES[interval];

  return (
    <Stack gap="xl">
      <figure style={{ margin: 0 }} data-testid="analytics-volume-chart">
        <Title order={3} size="h5" mb="xs">
          Volume and net
        </Title>
        <BarChart
          h={260}
          data={data}
          dataKey="label"
          series={[
            { name: 'volume', label: `Volume (${currency})`, color: 'blue.6' },
            { name: 'net', label: `Net (${currency})`, color: 'teal.6' },
          ]}
          valueFormatter={money}
          tickLine="y"
          gridAxis="x"
          yAxisProps={{ width: 90 }}
          withLegend
          barChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <figcaption>
          <Text size="xs" c="dimmed">
            Successful {currency} volume and net (volume − fees − refunds) per {per}.
          </Text>
        </figcaption>
      </figure>
      <figure style={{ margin: 0 }} data-testid="analytics-costs-chart">
        <Title order={3} size="h5" mb="xs">
          Fees and refunds
        </Title>
        <LineChart
          h={220}
          data={data}
          dataKey="label"
          series={[
            { name: 'fees', label: `Fees (${currency})`, color: 'orange.6' },
            { name: 'refunds', label: `Refunds (${currency})`, color: 'red.6' },
          ]}
          valueFormatter={money}
          tickLine="y"
          gridAxis="x"
          yAxisProps={{ width: 90 }}
          withLegend
          lineChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <figcaption>
          <Text size="xs" c="dimmed">
            Platform and provider fees, and processed refunds, per {per}.
          </Text>
        </figcaption>
      </figure>
      <figure style={{ margin: 0 }} data-testid="analytics-count-chart">
        <Title order={3} size="h5" mb="xs">
          Payments
        </Title>
        <BarChart
          h={220}
          data={data}
          dataKey="label"
          type="stacked"
          series={[
            { name: 'succeeded', label: 'Succeeded', color: 'green.6' },
            { name: 'unsuccessful', label: 'Failed or abandoned', color: 'gray.5' },
          ]}
          tickLine="y"
          gridAxis="x"
          withLegend
          barChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <figcaption>
          <Text size="xs" c="dimmed">
            Payments with an outcome per {per}.
          </Text>
        </figcaption>
      </figure>
      <VisuallyHidden>
        {/* Laid out 1 px wide: clipped anyway, and never wider than a phone's page. */}
        <table style={{ width: 1, tableLayout: 'fixed' }}>
          <caption>
            Figures per {per} ({currency})
          </caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Volume</th>
              <th scope="col">Payments</th>
              <th scope="col">Success rate</th>
              <th scope="col">Fees</th>
              <th scope="col">Refunds</th>
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.start}>
                <th scope="row">{bucketLabel(p.start, p.end)}</th>
                <td>{formatMoney(p.volume, currency)}</td>
                <td>{p.count}</td>
                <td>{formatRate(p.success_rate)}</td>
                <td>{formatMoney(p.fees, currency)}</td>
                <td>{formatMoney(p.refunds, currency)}</td>
                <td>{formatMoney(p.net, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}
