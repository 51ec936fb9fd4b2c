import { Alert, Autocomplete, Button, Group, NativeSelect } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { usePayments } from '../../payments';
import type { CheckoutOutcome } from '../api';
import { useCompleteCheckout } from '../hooks/useSandbox';

const OUTCOMES: Array<{ value: CheckoutOutcome; label: string }> = [
  { value: 'success', label: 'Success (card 4081)' },
  { value: 'declined', label: 'Declined (card 0002)' },
  { value: 'insufficient_funds', label: 'Insufficient funds (card 9995)' },
];

/** Pays a pending test checkout (picked from the pending payments, or pasted) with the outcome's test card. */
export function CompleteCheckoutForm() {
  const pending = usePayments({ status: 'pending' });
  const complete = useCompleteCheckout();
  const [reference, setReference] = useState('');
  const [outcome, setOutcome] = useState<CheckoutOutcome>('success');
  const references = pending.data?.pages.flatMap((page) => page.data.map((payment) => payment.reference)) ?? [];

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const chosen = reference.trim();
    if (chosen) complete.mutate({ reference: chosen, outcome });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Autocomplete
          label="Payment reference"
          description={pending.isSuccess ? `${references.length} pending payment${references.length === 1 ? '' : 's'} to pick from, or paste a reference` : 'Paste a reference'}
          placeholder="PAY_…"
          data={references}
          value={reference}
          onChange={(value) => {
            setReference(value);
            complete.reset();
          }}
          style={{ flex: '1 1 16rem' }}
          required
        />
        <NativeSelect label="Outcome" data={OUTCOMES} value={outcome} onChange={(event) => setOutcome(event.currentTarget.value as CheckoutOutcome)} style={{ flex: '0 1 16rem' }} />
        <Button type="submit" loading={complete.isPending} disabled={!reference.trim()}>
          Complete checkout
        </Button>
      </Group>
      {complete.isSuccess && (
        <Alert mt="sm" color={complete.data.status === 'success' ? 'green' : 'orange'} role="status" title="Checkout completed">
          Payment {complete.data.reference} is now <strong>{complete.data.status}</strong>
          {complete.data.gateway_response ? ` (${complete.data.gateway_response})` : ''}.
        </Alert>
      )}
      {complete.isError && (
        <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
          <ErrorAlert title="The checkout was not completed" error={complete.error} />
        </div>
      )}
    </form>
  );
}
