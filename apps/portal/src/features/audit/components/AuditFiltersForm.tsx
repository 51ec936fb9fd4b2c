import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { localInputToIso } from '../../../shared/format/time';
import type { AuditFilters } from '../api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The audit log's filters, as the API names them; empty ones are left out. `withAccount`: the
 * platform-wide log's extra filter, one account by its developer id.
 */
export function AuditFiltersForm({ onApply, withAccount = false }: { onApply: (filters: AuditFilters & { developer_id?: string }) => void; withAccount?: boolean }) {
  const form = useForm({
    initialValues: { developer_id: '', actor: '', action: '', target_type: '', target_id: '', from: '', to: '' },
    validate: {
      developer_id: (value) => (value.trim() && !UUID.test(value.trim()) ? 'A developer id (from the developers page)' : null),
      to: (to, { from }) => (from && to && new Date(to) < new Date(from) ? 'Must not be before “From”' : null),
    },
  });
  const apply = form.onSubmit((values) =>
    onApply({
      ...(withAccount ? { developer_id: values.developer_id.trim() || undefined } : {}),
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
      <SimpleGrid cols={{ base: 1, sm: 2, md: withAccount ? 4 : 3 }} mb="sm">
        {withAccount && <TextInput label="Account (developer id)" placeholder="Every account" {...form.getInputProps('developer_id')} />}
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
