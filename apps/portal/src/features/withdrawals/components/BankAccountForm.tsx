import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import { useSetSettlementAccount } from '../hooks/useWithdrawals';

/** Sets where settlements are paid. The API resolves the account at its bank and always needs the TOTP code, so the field is always shown. */
export function BankAccountForm({ onDone }: { onDone: () => void }) {
  const save = useSetSettlementAccount();
  const form = useForm({
    initialValues: { bank_code: '', account_number: '', totp: '' },
    validate: {
      bank_code: (value) => (/^[A-Za-z0-9]+$/.test(value.trim()) ? null : 'Enter the bank code (letters and digits)'),
      account_number: (value) => (/^\d{6,20}$/.test(value.trim()) ? null : '6 to 20 digits'),
      totp: (value) => (/^\d{6}$/.test(value.trim()) ? null : 'Enter the 6-digit code'),
    },
  });
  const submit = form.onSubmit(({ bank_code, account_number, totp }) =>
    save.mutate(
      { body: { bank_code: bank_code.trim(), account_number: account_number.trim() }, totp: totp.trim() },
      { onSuccess: onDone, onError: (error) => form.setErrors(fieldErrorsOf(error)) },
    ),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Settlement bank account">
      <Stack gap="sm">
        {save.isError && <ErrorAlert title="The bank account was not saved" error={save.error} />}
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label="Bank code" placeholder="058" required miw={140} {...form.getInputProps('bank_code')} />
          <TextInput label="Account number" inputMode="numeric" required miw={180} {...form.getInputProps('account_number')} />
        </Group>
        <TotpCodeField description="Changing where money goes needs the 6-digit code from your authenticator app." required {...form.getInputProps('totp')} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save the bank account
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
