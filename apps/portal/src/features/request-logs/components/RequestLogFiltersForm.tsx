import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { RequestLogFilters, StatusClass } from '../api';

const STATUS_CLASSES: { value: StatusClass; label: string }[] = [
  { value: '2xx', label: '2xx success' },
  { value: '3xx', label: '3xx redirect' },
  { value: '4xx', label: '4xx client error' },
  { value: '5xx', label: '5xx server error' },
];

/** A `datetime-local` value is the user's own wall-clock time; the API wants an instant. */
function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

export interface RequestLogFiltersFormProps {
  onApply: (filters: RequestLogFilters) => void;
}

export function RequestLogFiltersForm({ onApply }: RequestLogFiltersFormProps) {
  const form = useForm({
    initialValues: { statusClass: null as string | null, path: '', requestId: '', from: '', to: '' },
    validate: {
      to: (to, { from }) => (from && to && new Date(to) < new Date(from) ? 'Must not be before “From”' : null),
    },
  });

  const apply = form.onSubmit(({ statusClass, path, requestId, from, to }) =>
    onApply({
      statusClass: (statusClass as StatusClass | null) ?? undefined,
      path: path.trim() || undefined,
      requestId: requestId.trim() || undefined,
      from: toIso(from),
      to: toIso(to),
    }),
  );
  const clear = () => {
    form.reset();
    onApply({});
  };

  return (
    <form onSubmit={apply} noValidate aria-label="Filter request logs">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} mb="sm">
        <Select label="Status" placeholder="Any" data={STATUS_CLASSES} clearable {...form.getInputProps('statusClass')} />
        <TextInput label="Path contains" placeholder="customers" {...form.getInputProps('path')} />
        <TextInput label="Request ID" {...form.getInputProps('requestId')} />
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
