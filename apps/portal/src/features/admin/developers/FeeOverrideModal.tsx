import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { formatMoney, minorDigits, toMinorUnits } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { useSetFeeOverride } from './hooks';

export interface FeeOverrideModalProps {
  developerId: string;
  /** The currency being set; null when closed. */
  currency: string | null;
  current: number | null;
  onClose: () => void;
}

/** The account's flat platform fee per successful transaction in one currency (0 = no fee). */
export function FeeOverrideModal({ developerId, currency, current, onClose }: FeeOverrideModalProps) {
  const setFee = useSetFeeOverride(developerId);
  const digits = currency ? minorDigits(currency) : 2;
  const form = useForm({
    initialValues: { amount: '' },
    validate: {
      amount: (value) => (toMinorUnits(value.trim(), digits) === null ? `A non-negative amount with at most ${digits} decimals, e.g. 10 or 7.50` : null),
    },
  });
  const close = () => {
    form.reset();
    setFee.reset();
    onClose();
  };
  const submit = form.onSubmit(({ amount }) => {
    if (!currency) return;
    setFee.mutate(
      // The text is exact (checked above); the API reads the JSON number back as that decimal.
      { currency, amount: Number(amount.trim()) },
      {
        onSuccess: (fee) => {
          notifications.show({ color: 'green', message: `The ${fee.currency} platform fee is now ${formatMoney(fee.amount, fee.currency)} per transaction.` });
          close();
        },
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    );
  });
  return (
    <Modal opened={currency !== null} onClose={close} title={`Set the ${currency ?? ''} platform fee`}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {current === null ? 'This account pays the default platform fee.' : `Now: ${formatMoney(current, currency ?? 'NGN')} per successful transaction.`} The new fee applies to
            transactions from now on.
          </Text>
          <TextInput label={`Fee per transaction (${currency ?? ''})`} inputMode="decimal" placeholder="10.00" autoComplete="off" required data-autofocus {...form.getInputProps('amount')} />
          {setFee.error && Object.keys(fieldErrorsOf(setFee.error)).length === 0 && <ErrorAlert title="The fee was not set" error={setFee.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={setFee.isPending}>
              Save fee
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
