import { Alert, Button, NumberInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatMoney, toMinorUnits } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf, needsTotp } from '../../../shared/ui/errors';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import type { Settlement } from '../api';
import { useRequestWithdrawal } from '../hooks/useWithdrawals';

/**
 * A withdrawal of the available NGN balance to the settlement account. Above the large-withdrawal
 * threshold the API answers `totp_required`: the code field appears and the same request is sent again.
 */
export function WithdrawalForm({ available }: { available: number | undefined }) {
  const withdraw = useRequestWithdrawal();
  const form = useForm({
    initialValues: { amount: '' as string | number, totp: '' },
    validate: {
      amount: (value) => {
        const minor = toMinorUnits(String(value));
        return minor !== null && minor > 0n ? null : 'Enter an amount with at most 2 decimals';
      },
    },
  });
  const askTotp = needsTotp(withdraw.error) || form.values.totp !== '';
  const submit = form.onSubmit(({ amount, totp }) =>
    withdraw.mutate(
      { amount: Number(amount), totp: totp || undefined },
      {
        onSuccess: () => form.reset(),
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    ),
  );
  const done: Settlement | undefined = withdraw.data;
  return (
    <form onSubmit={submit} noValidate aria-label="Request a withdrawal">
      <Stack gap="sm" maw={420}>
        {done && (
          <Alert color="green" title="Withdrawal requested" role="status">
            {formatMoney(done.amount, done.currency)} is reserved and waits for approval ({done.reference}).
          </Alert>
        )}
        {withdraw.isError && !needsTotp(withdraw.error) && <ErrorAlert title="The withdrawal was not requested" error={withdraw.error} />}
        <NumberInput
          label="Amount (NGN)"
          description={available === undefined ? undefined : `Available: ${formatMoney(available, 'NGN')}`}
          min={0}
          decimalScale={2}
          thousandSeparator=","
          allowNegative={false}
          required
          {...form.getInputProps('amount')}
        />
        {askTotp && <TotpCodeField error={withdraw.error && needsTotp(withdraw.error) && form.values.totp ? withdraw.error.message : undefined} {...form.getInputProps('totp')} />}
        <Button type="submit" loading={withdraw.isPending} style={{ alignSelf: 'flex-start' }}>
          Request the withdrawal
        </Button>
      </Stack>
    </form>
  );
}
