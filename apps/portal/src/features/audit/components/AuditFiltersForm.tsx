import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { localInputToIso } from '../../../shared/format/time';
import type { AuditFilters } from '../api';

export function AuditFiltersForm({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const form = useForm({
    initialValues: { actor: '', action: '', target_type: '', target_id: '', from: '', to: '' },
    validate: {
      to: (to, { from }) => (from && to && new Date(to) < new Date(from) ? 'Must not be before “From”' : null),
    },
  });
  const apply = form.onSubmit((values) =>
    onApply({
      actor: values.actor.trim() || undefined,
      action: values.action.trim() || undefined,
      target_type: values.target_type.trim() || undefined,
      target_id: values.target_id.trim() || undefined,
      from: localInputToIso(values.from),
      to: localInputToIso(values.to),
    }),
  );
  const clear = () => {
    form.reset();
    onApply({});
  };

  return (
    <form onSubmit={apply} noValidate aria-label="Filter the audit log">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mb="sm">
        <TextInput label="Actor" description="E-mail or key hint, exactly" placeholder="ada@example.com" {...form.getInputProps('actor')} />
        <TextInput label="Action" placeholder="api_key.created" {...form.getInputProps('action')} />
        <TextInput label="Target type" placeholder="api_key" {...form.getInputProps('target_type')} />
        <TextInput label="Target id" {...form.getInputProps('target_id')} />
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
