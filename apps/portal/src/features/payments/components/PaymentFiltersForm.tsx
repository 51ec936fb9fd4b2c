import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CURRENCIES } from '../../../shared/currencies';
import { localInputToIso } from '../../../shared/format/time';
import { PAYMENT_STATUSES, type PaymentFilters, type PaymentStatus } from '../api';

export interface PaymentFiltersFormProps {
  onApply: (filters: PaymentFilters) => void;
}

export function PaymentFiltersForm({ onApply }: PaymentFiltersFormProps) {
  const form = useForm({
    initialValues: { status: null as string | null, currency: null as string | null, customer: '', from: '', to: '' },
    validate: {
      to: (to, { from }) => (from && to && new Date(to) < new Date(from) ? 'Must not be before “From”' : null),
    },
  });

  const apply = form.onSubmit(({ status, currency, customer, from, to }) =>
    onApply({
      status: (status as PaymentStatus | null) ?? undefined,
      currency: currency ?? undefined,
      customer: customer.trim() || undefined,
      from: localInputToIso(from),
      to: localInputToIso(to),
    }),
  );
  const clear = () => {
    form.reset();
    onApply({});
  };

  return (
    <form onSubmit={apply} noValidate aria-label="Filter payments">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} mb="sm">
        <Select label="Status" placeholder="Any" data={PAYMENT_STATUSES} clearable {...form.getInputProps('status')} />
        <Select label="Currency" placeholder="Any" data={[...CURRENCIES]} clearable {...form.getInputProps('currency')} />
        <TextInput label="Customer reference" placeholder="CUS_…" {...form.getInputProps('customer')} />
        <TextInput label="From" type="datetime-local" {...form.getInputProps('from')} />
        <TextInput label="To" type="datetime-local" {...form.getInputProps('to')} />
      </SimpleGrid>
      <Group mb="md" gap="xs">
        <Button type="submit" variant="light">
          Apply filters
        </Button>
        <Button variant="subtle" onClick={clear}>
          Clear
        </Button>
      </Group>
    </form>
  );
}
