import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Text, VisuallyHidden } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import type { AdminTimeseries } from './api';

/**
 * Successful volume per UTC day of one currency, as the API counts it (no sums here). Lives in the
 * admin chunk with recharts; the hidden table is what assistive technology reads.
 */
export function VolumeSeriesChart({ series }: { series: AdminTimeseries }) {
  const currency = series.currencies[0];
  if (!currency) return null;
  const points = currency.points.map((p) => ({ label: p.start.slice(5), day: p.start, volume: p.volume, count: p.count, succeeded: p.succeeded }));
  if (points.every((p) => p.count === 0)) {
    return (
      <Text c="dimmed" size="sm" py="md">
        No {series.mode}-mode {currency.currency} payments reached an outcome from {series.from} to {series.to}.
      </Text>
    );
  }
  return (
    <figure style={{ margin: 0 }} data-testid="admin-volume-chart">
      <BarChart
        h={260}
        data={points}
        dataKey="label"
        series={[{ name: 'volume', label: `Volume (${currency.currency})`, color: 'blue.6' }]}
        valueFormatter={(value) => formatMoney(value, currency.currency)}
        tickLine="y"
        gridAxis="x"
        yAxisProps={{ width: 90 }}
        barChartProps={{ accessibilityLayer: false }}
        aria-hidden
      />
      <figcaption>
        <Text size="xs" c="dimmed">
          Successful {currency.currency} volume per UTC day, {series.from} to {series.to}, {series.developer_id ? 'one account' : 'every account'} ({series.mode} mode).
        </Text>
      </figcaption>
      <VisuallyHidden>
        {/* Fixed to its 1-px box: the hidden table must not stretch a phone's page sideways. */}
        <table style={{ tableLayout: 'fixed', width: '100%' }}>
          <caption>Daily volume ({currency.currency})</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Volume</th>
              <th scope="col">Payments succeeded</th>
            </tr>
          </thead>
          <tbody>
            {points
              .filter((p) => p.count > 0)
              .map((p) => (
                <tr key={p.day}>
                  <th scope="row">{p.day}</th>
                  <td>{formatMoney(p.volume, currency.currency)}</td>
                  <td>{p.succeeded}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
