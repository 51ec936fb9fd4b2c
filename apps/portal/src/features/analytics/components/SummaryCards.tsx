import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import type { AnalyticsCurrencyFigures } from '../api';
import { formatRate } from '../range';

function Card({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Text size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Paper>
  );
}

/** One currency's figures over the range, exactly as the API summed them. */
export function SummaryCards({ figures }: { figures: AnalyticsCurrencyFigures }) {
  const { currency } = figures;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mb="xl" aria-label={`Summary in ${currency}`} component="section">
      <Card testId="analytics-volume" label="Volume" value={formatMoney(figures.volume, currency)} detail={`${figures.succeeded} successful payment${figures.succeeded === 1 ? '' : 's'}`} />
      <Card testId="analytics-count" label="Payments" value={String(figures.count)} detail={`${figures.succeeded} succeeded, ${figures.failed} failed, ${figures.abandoned} abandoned`} />
      <Card testId="analytics-success-rate" label="Success rate" value={formatRate(figures.success_rate)} detail="Succeeded out of every payment with an outcome" />
      <Card testId="analytics-fees" label="Fees" value={formatMoney(figures.fees, currency)} detail={`Platform ${formatMoney(figures.platform_fees, currency)} · provider ${formatMoney(figures.provider_fees, currency)}`} />
      <Card testId="analytics-refunds" label="Refunds" value={formatMoney(figures.refunds, currency)} detail={`${figures.refunds_count} refund${figures.refunds_count === 1 ? '' : 's'}`} />
      <Card testId="analytics-net" label="Net" value={formatMoney(figures.net, currency)} detail="Volume − fees − refunds" />
    </SimpleGrid>
  );
}
