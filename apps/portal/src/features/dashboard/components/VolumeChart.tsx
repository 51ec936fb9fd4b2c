import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { SegmentedControl, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { formatMoney } from '../../../shared/format/money';
import type { DashboardDay } from '../api';
import { chartCurrencies, dailySeries } from '../chart-data';

export interface VolumeChartProps {
  days: DashboardDay[];
  asOf: string;
}

/**
 * Successful volume per UTC day over the last 30 days, one currency at a time (amounts in different
 * currencies do not add up). Lives in the dashboard's lazily loaded chunk, with recharts.
 */
export function VolumeChart({ days, asOf }: VolumeChartProps) {
  const currencies = chartCurrencies(days);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];

  if (!currency) {
    return (
      <Text c="dimmed" size="sm" py="md">
        No successful payments in the last 30 days.
      </Text>
    );
  }
  const series = dailySeries(days, currency, asOf);
  const total = days.filter((d) => d.currency === currency).reduce((n, d) => n + d.count, 0);
  return (
    <div>
      {currencies.length > 1 && (
        <SegmentedControl aria-label="Currency of the chart" mb="sm" value={currency} onChange={setChosen} data={currencies} />
      )}
      <figure style={{ margin: 0 }} data-testid="volume-chart">
        <BarChart
          h={260}
          data={series}
          dataKey="label"
          series={[{ name: 'volume', label: `Volume (${currency})`, color: 'blue.6' }]}
          valueFormatter={(value) => formatMoney(value, currency)}
          tickLine="y"
          gridAxis="x"
          yAxisProps={{ width: 90 }}
          // The hidden table below is what assistive technology reads: no focusable chart.
          barChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <figcaption>
          <Text size="xs" c="dimmed">
            Successful {currency} volume per UTC day, last 30 days: {total} payment{total === 1 ? '' : 's'}.
          </Text>
        </figcaption>
        {/* The figures the bars show, for screen readers. */}
        <VisuallyHidden>
          <table>
            <caption>Daily volume ({currency})</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Volume</th>
                <th scope="col">Payments</th>
              </tr>
            </thead>
            <tbody>
              {series
                .filter((d) => d.count > 0)
                .map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{d.date}</th>
                    <td>{formatMoney(d.volume, currency)}</td>
                    <td>{d.count}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </VisuallyHidden>
      </figure>
    </div>
  );
}
