import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { formatMoney } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { AdminSettlement } from './api';
import { useApproveSettlement, useRejectSettlement } from './hooks';

interface DecisionModalProps {
  settlement: AdminSettlement | null;
  onClose: () => void;
}

/** Approving pays the money out once enough people approved: asked once more, with what will happen. */
export function ApproveModal({ settlement, onClose }: DecisionModalProps) {
  const approve = useApproveSettlement();
  const close = () => {
    approve.reset();
    onClose();
  };
  if (!settlement) return <Modal opened={false} onClose={close} title="Approve withdrawal" />;
  const approvals = settlement.decisions.filter((d) => d.decision === 'approve').length;
  const last = approvals + 1 >= settlement.approvals_required;
  return (
    <Modal opened onClose={close} title="Approve withdrawal">
      <Stack>
        <Text size="sm">
          {formatMoney(settlement.amount, settlement.currency)} from {settlement.developer_name} to {settlement.bank_account.account_name} ···{settlement.bank_account.account_number_last4}.
        </Text>
        <Text size="sm">
          {last
            ? 'Yours is the last approval needed: the money is sent to the bank account at once.'
            : `This needs ${settlement.approvals_required} approvals from different people: after yours it waits for another.`}
        </Text>
        {approve.error != null && <ErrorAlert title="The withdrawal was not approved" error={approve.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            loading={approve.isPending}
            onClick={() =>
              approve.mutate(settlement.reference, {
                onSuccess: (updated) => {
                  notifications.show({ color: 'green', message: updated.status === 'pending_approval' ? `Your approval of ${updated.reference} is recorded.` : `${updated.reference} is approved and being paid.` });
                  close();
                },
              })
            }
          >
            Approve withdrawal
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A rejection releases the reserved amount; the account sees the reason, so one is required. */
export function RejectModal({ settlement, onClose }: DecisionModalProps) {
  const reject = useRejectSettlement();
  const form = useForm({
    initialValues: { reason: '' },
    validate: { reason: (value) => (value.trim() ? (value.trim().length > 500 ? 'At most 500 characters' : null) : 'Give the account a reason') },
  });
  const close = () => {
    form.reset();
    reject.reset();
    onClose();
  };
  const submit = form.onSubmit(({ reason }) => {
    if (!settlement) return;
    reject.mutate(
      { reference: settlement.reference, reason: reason.trim() },
      {
        onSuccess: (updated) => {
          notifications.show({ color: 'green', message: `${updated.reference} is rejected; the account's funds are released.` });
          close();
        },
      },
    );
  });
  return (
    <Modal opened={settlement !== null} onClose={close} title="Reject withdrawal">
      <form onSubmit={submit} noValidate>
        <Stack>
          {settlement && (
            <Text size="sm">
              {formatMoney(settlement.amount, settlement.currency)} from {settlement.developer_name}: the reserved amount returns to the account's available balance.
            </Text>
          )}
          <Textarea label="Reason" description="Shown to the account." required autosize minRows={2} maxLength={500} data-autofocus {...form.getInputProps('reason')} />
          {reject.error != null && <ErrorAlert title="The withdrawal was not rejected" error={reject.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={reject.isPending}>
              Reject withdrawal
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
