import { Alert, Autocomplete, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatMoney } from '../../../shared/format/money';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { usePayments } from '../../payments';
import type { Dispute } from '../api';
import { useOpenDispute, useResolveDispute } from '../hooks/useSandbox';

/**
 * Opens a test dispute on a paid payment (as the customer's bank would), then decides it: the
 * reference of the dispute just opened is filled in, or paste another one.
 */
export function DisputeForms() {
  const paid = usePayments({ status: 'success' });
  const open = useOpenDispute();
  const resolve = useResolveDispute();
  const [payment, setPayment] = useState('');
  const [disputeReference, setDisputeReference] = useState('');
  const [dispute, setDispute] = useState<Dispute | null>(null);
  const references = paid.data?.pages.flatMap((page) => page.data.map((p) => p.reference)) ?? [];

  const submitOpen = (event: React.FormEvent) => {
    event.preventDefault();
    if (!payment.trim()) return;
    open.mutate(payment.trim(), {
      onSuccess: (opened) => {
        setDispute(opened);
        setDisputeReference(opened.reference);
        resolve.reset();
      },
    });
  };

  const decide = (outcome: 'won' | 'lost') => {
    const reference = disputeReference.trim();
    if (reference) resolve.mutate({ reference, outcome }, { onSuccess: setDispute });
  };

  return (
    <Stack gap="md">
      <form onSubmit={submitOpen} noValidate>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Autocomplete
            label="Paid payment"
            description="A successful test payment: the whole of it is disputed."
            placeholder="PAY_…"
            data={references}
            value={payment}
            onChange={(value) => {
              setPayment(value);
              open.reset();
            }}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={open.isPending} disabled={!payment.trim()}>
            Open dispute
          </Button>
        </Group>
        {open.isError && (
          <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
            <ErrorAlert title="The dispute was not opened" error={open.error} />
          </div>
        )}
      </form>
      <div>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput
            label="Dispute reference"
            placeholder="DSP_…"
            value={disputeReference}
            onChange={(event) => {
              setDisputeReference(event.currentTarget.value);
              resolve.reset();
            }}
            style={{ flex: '1 1 16rem' }}
          />
          <Button color="green" variant="light" onClick={() => decide('won')} loading={resolve.isPending && resolve.variables?.outcome === 'won'} disabled={!disputeReference.trim() || resolve.isPending}>
            Resolve as won
          </Button>
          <Button color="red" variant="light" onClick={() => decide('lost')} loading={resolve.isPending && resolve.variables?.outcome === 'lost'} disabled={!disputeReference.trim() || resolve.isPending}>
            Resolve as lost
          </Button>
        </Group>
        {resolve.isError && (
          <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
            <ErrorAlert title="The dispute was not resolved" error={resolve.error} />
          </div>
        )}
      </div>
      {dispute && (
        <Alert color={dispute.status === 'lost' ? 'red' : dispute.status === 'won' ? 'green' : 'blue'} role="status" title={`Dispute ${dispute.reference}`}>
          <Text size="sm">
            On payment {dispute.payment_reference}: <strong>{dispute.status}</strong>, {formatMoney(dispute.amount, dispute.currency)} disputed
            {dispute.status === 'open' || dispute.status === 'under_review' ? `, ${formatMoney(dispute.amount_held, dispute.currency)} held in the wallet` : ''}.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
