import { Alert, Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CURRENCIES } from '../../../shared/currencies';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { ExportJob, ExportType } from '../api';
import { EXPORT_TYPES, exportTypeLabel, localDayStart } from '../export-types';
import { useRequestExport } from '../hooks/useExports';

/** `YYYY-MM-DD` of a local date. */
function dayText(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function initialRange(): { from: string; to: string } {
  const today = new Date();
  return { from: dayText(new Date(today.getFullYear(), today.getMonth(), 1)), to: dayText(today) };
}

/**
 * Asks for a CSV export: what, which days (the user's own days, both included) and optionally one
 * currency or status. The export runs in the background; the list below shows its progress.
 */
export function RequestExportForm({ onRequested }: { onRequested?: (job: ExportJob) => void }) {
  const request = useRequestExport();
  const form = useForm({
    initialValues: { type: 'payments' as ExportType, ...initialRange(), currency: null as string | null, status: null as string | null },
    validate: {
      from: (value) => (localDayStart(value) ? null : 'Choose the first day'),
      to: (value, { from }) => (!localDayStart(value) ? 'Choose the last day' : from && value < from ? 'Must not be before the first day' : null),
    },
  });
  const kind = EXPORT_TYPES.find((t) => t.value === form.values.type) ?? EXPORT_TYPES[0];

  const submit = form.onSubmit(({ type, from, to, currency, status }) =>
    request.mutate(
      {
        type,
        from: localDayStart(from) as string,
        to: localDayStart(to, true) as string,
        ...(kind.currency && currency ? { currency } : {}),
        ...(status && kind.statuses.includes(status) ? { status } : {}),
      },
      { onSuccess: (job) => onRequested?.(job), onError: (error) => form.setErrors(fieldErrorsOf(error)) },
    ),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Request an export">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} mb="sm">
        <Select
          label="Type"
          data={EXPORT_TYPES.map(({ value, label }) => ({ value, label }))}
          allowDeselect={false}
          required
          {...form.getInputProps('type')}
          onChange={(value) => {
            form.setFieldValue('type', (value ?? 'payments') as ExportType);
            form.setFieldValue('status', null);
          }}
        />
        <TextInput label="From" type="date" required {...form.getInputProps('from')} />
        <TextInput label="To" type="date" required {...form.getInputProps('to')} />
        <Select label="Currency" placeholder={kind.currency ? 'Any' : 'Not filtered'} data={[...CURRENCIES]} clearable disabled={!kind.currency} {...form.getInputProps('currency')} />
        <Select label="Status" placeholder={kind.statuses.length ? 'Any' : 'Not filtered'} data={[...kind.statuses]} clearable disabled={kind.statuses.length === 0} {...form.getInputProps('status')} />
      </SimpleGrid>
      {request.isError && Object.keys(fieldErrorsOf(request.error)).length === 0 && <ErrorAlert title="The export was not requested" error={request.error} />}
      {request.isSuccess && (
        <Alert color="green" title="Export requested" role="status" mb="sm">
          {exportTypeLabel(request.data.type)} export {request.data.reference} is queued. It appears below with its progress; the file can be downloaded once it is ready.
        </Alert>
      )}
      <Group mb="md" gap="xs">
        <Button type="submit" loading={request.isPending}>
          Request export
        </Button>
      </Group>
    </form>
  );
}
