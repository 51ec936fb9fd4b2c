import { Alert, Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatMoney, toMinorUnits } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { useDeposit } from '../hooks/useSandbox';

/** A bank transfer into a test virtual account (NGN), as a customer would make it. Each submit is a new transfer. */
export function DepositForm() {
  const deposit = useDeposit();
  const form = useForm({
    initialValues: { id: '', amount: '', sender: '' },
    validate: {
      id: (value) => (value.trim() ? null : 'Enter the virtual account ID'),
      amount: (value) => {
        const minor = toMinorUnits(value.trim(), 2);
        if (minor === null) return 'Enter an amount such as 5000 or 5000.50';
        return minor > 0n ? null : 'Must be more than zero';
      },
      sender: (value) => (value.length > 100 ? 'At most 100 characters' : null),
    },
  });

  const submit = form.onSubmit(({ id, amount, sender }) => {
    // A JSON number for the API: the validated decimal text, never computed with.
    deposit.mutate({ id: id.trim(), amount: Number(amount.trim()), senderName: sender.trim() || undefined }, { onError: (error) => form.setErrors({ amount: fieldErrorsOf(error).amount, sender: fieldErrorsOf(error).sender_name }) });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" wrap="wrap" gap="sm">
        <TextInput label="Virtual account ID" description="From POST /api/v1/virtual-accounts" {...form.getInputProps('id')} style={{ flex: '1 1 16rem' }} />
        <TextInput label="Amount (NGN)" inputMode="decimal" {...form.getInputProps('amount')} style={{ flex: '0 1 10rem' }} />
        <TextInput label="Sender name" description="Optional" {...form.getInputProps('sender')} style={{ flex: '0 1 12rem' }} />
      </Group>
      <Group mt="sm">
        <Button type="submit" loading={deposit.isPending}>
          Deposit
        </Button>
      </Group>
      {deposit.isSuccess && (
        <Alert mt="sm" color="green" role="status" title="Deposit credited">
          {formatMoney(deposit.data.amount, deposit.data.currency)} received ({deposit.data.reference}); {formatMoney(deposit.data.net_amount, deposit.data.currency)} credited to the wallet after fees.
        </Alert>
      )}
      {deposit.isError && (
        <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
          <ErrorAlert title="The deposit was not made" error={deposit.error} />
        </div>
      )}
    </form>
  );
}
