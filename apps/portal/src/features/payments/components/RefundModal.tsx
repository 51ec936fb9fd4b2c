import { Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { formatMoney, fromMinorUnits, minorDigits, toMinorUnits } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import type { Payment } from '../api';
import { useRefundPayment } from '../hooks/usePayments';
import { refundableMinor } from '../refundable';

export interface RefundModalProps {
  payment: Payment;
  opened: boolean;
  onClose: () => void;
}

/** Refund in full or in part. One idempotency key per opening: a double click is one refund. */
export function RefundModal({ payment, opened, onClose }: RefundModalProps) {
  const refund = useRefundPayment(payment.reference);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const digits = minorDigits(payment.currency);
  const left = refundableMinor(payment);
  const leftText = formatMoney(fromMinorUnits(left, digits), payment.currency);
  const form = useForm({
    initialValues: { kind: 'full' as 'full' | 'partial', amount: '', reason: '' },
    validate: {
      amount: (value, { kind }) => {
        if (kind === 'full') return null;
        const minor = toMinorUnits(value.trim(), digits);
        if (minor === null) return `Enter an amount such as 100 or 100.50 (at most ${digits} decimals)`;
        if (minor <= 0n) return 'Must be more than zero';
        if (minor > left) return `At most ${leftText}`;
        return null;
      },
      reason: (value) => (value.length > 500 ? 'At most 500 characters' : null),
    },
  });

  const fieldErrors = fieldErrorsOf(refund.error);
  const shownOnFields = 'amount' in fieldErrors || 'reason' in fieldErrors;

  const close = () => {
    form.reset();
    refund.reset();
    setIdempotencyKey(crypto.randomUUID());
    onClose();
  };

  const submit = form.onSubmit(({ kind, amount, reason }) => {
    // The API takes a JSON number: the validated decimal text is read as one, never computed with.
    const body = { ...(kind === 'partial' ? { amount: Number(amount.trim()) } : {}), ...(reason.trim() ? { reason: reason.trim() } : {}) };
    refund.mutate(
      { body, idempotencyKey },
      {
        onSuccess: (made) => {
          notifications.show({ color: 'green', message: `Refund ${made.reference} of ${formatMoney(made.amount, made.currency)} is ${made.status}.` });
          close();
        },
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    );
  });

  return (
    <Modal opened={opened} onClose={close} title="Refund payment">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            The refund is paid from your wallet's available balance. Up to <strong>{leftText}</strong> can be refunded.
          </Text>
          <div>
            <Text size="sm" fw={500} id="refund-kind-label">
              Amount to refund
            </Text>
            <SegmentedControl
              aria-labelledby="refund-kind-label"
              data={[
                { value: 'full', label: `Full (${leftText})` },
                { value: 'partial', label: 'Partial' },
              ]}
              {...form.getInputProps('kind')}
            />
          </div>
          {form.values.kind === 'partial' && (
            <TextInput label={`Amount (${payment.currency})`} inputMode="decimal" placeholder="100.00" autoComplete="off" data-autofocus {...form.getInputProps('amount')} />
          )}
          <TextInput label="Reason" description="Optional; kept with the refund." {...form.getInputProps('reason')} />
          {refund.error && !shownOnFields && <ErrorAlert title="The payment was not refunded" error={refund.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={refund.isPending}>
              Refund
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
