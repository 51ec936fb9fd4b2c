import { Group, Paper, Stack, Text } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import type { DashboardPeriod } from '../api';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

/** One period's successful volume per currency (the API's exact sums), count and success rate. */
export function PeriodSummary({ title, period, testId }: { title: string; period: DashboardPeriod; testId: string }) {
  const headingId = `${testId}-heading`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId} data-testid={testId}>
      <Text size="sm" c="dimmed" fw={600} id={headingId} component="h2" m={0}>
        {title}
      </Text>
      <Stack gap={4} mt="xs">
        {period.volumes.length === 0 ? (
          <Text fw={700} size="xl">
            No successful payments
          </Text>
        ) : (
          period.volumes.map((v) => (
            <Group key={v.currency} justify="space-between" gap="xs" wrap="wrap">
              <Text fw={700} size="xl" style={{ overflowWrap: 'anywhere' }}>
                {formatMoney(v.volume, v.currency)}
              </Text>
              <Text size="sm" c="dimmed">
                {v.count} payment{v.count === 1 ? '' : 's'}
              </Text>
            </Group>
          ))
        )}
      </Stack>
      <Text size="sm" mt="xs">
        Success rate:{' '}
        <Text span fw={600}>
          {period.success_rate === null ? '—' : percent.format(period.success_rate)}
        </Text>{' '}
        <Text span c="dimmed" size="xs">
          ({period.succeeded} succeeded, {period.unsuccessful} failed or abandoned)
        </Text>
      </Text>
    </Paper>
  );
}
