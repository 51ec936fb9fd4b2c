import { Button, Group, Select, SegmentedControl, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CURRENCIES } from '../../../shared/currencies';
import type { AnalyticsInterval } from '../api';
import { rangeProblem } from '../range';

export interface AnalyticsFilters {
  from: string;
  to: string;
  currency: string;
  interval: AnalyticsInterval;
}

const INTERVALS: { value: AnalyticsInterval; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

/** The range (UTC days, both included), the currency and the chart's interval. */
export function AnalyticsFiltersForm({ value, onApply }: { value: AnalyticsFilters; onApply: (filters: AnalyticsFilters) => void }) {
  const form = useForm({
    initialValues: value,
    validate: { to: (to, { from }) => rangeProblem(from, to) },
  });
  const apply = form.onSubmit((values) => onApply(values));

  return (
    <form onSubmit={apply} noValidate aria-label="Analytics range">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} mb="sm">
        <TextInput label="From (UTC day)" type="date" required {...form.getInputProps('from')} />
        <TextInput label="To (UTC day)" type="date" required {...form.getInputProps('to')} />
        <Select label="Currency" data={[...CURRENCIES]} allowDeselect={false} {...form.getInputProps('currency')} />
        <div>
          <Text size="sm" fw={500} id="analytics-interval-label">
            Interval
          </Text>
          <SegmentedControl aria-labelledby="analytics-interval-label" data={INTERVALS} fullWidth {...form.getInputProps('interval')} />
        </div>
      </SimpleGrid>
      <Group mb="md" gap="xs">
        <Button type="submit" variant="light">
          Show
        </Button>
      </Group>
    </form>
  );
}
