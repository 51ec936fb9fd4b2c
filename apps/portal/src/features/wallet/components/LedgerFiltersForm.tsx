import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { localInputToIso } from '../../../shared/format/time';
import { CURRENCIES, type Currency } from '../../../shared/currencies';
import { LEDGER_ENTRY_TYPES, type LedgerEntryType, type LedgerFilters } from '../api';

export function LedgerFiltersForm({ onApply }: { onApply: (filters: LedgerFilters) => void }) {
  const form = useForm({
    initialValues: { currency: null as string | null, type: null as string | null, reference: '', from: '', to: '' },
    validate: {
      to: (to, { from }) => (from && to && new Date(to) < new Date(from) ? 'Must not be before “From”' : null),
    },
  });
  const apply = form.onSubmit(({ currency, type, reference, from, to }) =>
    onApply({
      currency: (currency as Currency | null) ?? undefined,
      type: (type as LedgerEntryType | null) ?? undefined,
      reference: reference.trim() || undefined,
      from: localInputToIso(from),
      to: localInputToIso(to),
    }),
  );
  const clear = () => {
    form.reset();
    onApply({});
  };
  return (
    <form onSubmit={apply} noValidate aria-label="Filter ledger entries">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} mb="sm">
        <Select label="Currency" placeholder="Any" data={[...CURRENCIES]} clearable {...form.getInputProps('currency')} />
        <Select label="Entry type" placeholder="Any" data={LEDGER_ENTRY_TYPES} clearable {...form.getInputProps('type')} />
        <TextInput label="Reference" placeholder="PAY-… or RFD_…" {...form.getInputProps('reference')} />
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
