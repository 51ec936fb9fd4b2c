import { Button, Center, Group, Loader, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatTime, localInputToIso } from '../../../shared/format/time';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { RulesRun } from '../api';
import { useAdvanceClock, useResetClock, useTestClock } from '../hooks/useSandbox';

const UNITS = [
  { value: '3600', label: 'hours' },
  { value: '86400', label: 'days' },
];

/** What each time-driven rule is called on the page (docs/test-clocks.md, "What follows the clock"). */
const RULE_LABELS: Record<keyof RulesRun, string> = {
  abandoned_payments: 'Abandoned checkouts',
  scheduled_charges: 'Scheduled charges',
  payment_intent_expiry: 'Hold expiry',
  dispute_expiry: 'Dispute deadlines',
  subscription_billing: 'Subscription billing and dunning',
  invoice_overdue: 'Overdue invoices',
};

/** "2 days 3 hours ahead of real time", or "on real time". */
export function describeOffset(seconds: number): string {
  if (seconds <= 0) return 'On real time';
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days && `${days} ${days === 1 ? 'day' : 'days'}`, hours && `${hours} ${hours === 1 ? 'hour' : 'hours'}`, minutes && `${minutes} min`].filter(Boolean);
  return `${parts.length ? parts.join(' ') : `${seconds} s`} ahead of real time`;
}

/** The account's test clock: its time and offset; advance (by hours or days, or to a date) and reset. */
export function TestClockPanel({ canAct }: { canAct: boolean }) {
  const clock = useTestClock(true);
  const advance = useAdvanceClock();
  const reset = useResetClock();
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState('86400');
  const [target, setTarget] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [rulesRun, setRulesRun] = useState<RulesRun | null>(null);

  const advanceBy = (seconds: number) => {
    setFormError(null);
    advance.mutate(seconds, { onSuccess: (answer) => setRulesRun(answer.rules_run ?? null) });
  };

  const submitBy = (event: React.FormEvent) => {
    event.preventDefault();
    const count = Number(amount);
    if (!/^\d+(\.\d+)?$/.test(amount.trim()) || !(count > 0)) return setFormError('Enter a number of hours or days above zero');
    advanceBy(Math.round(count * Number(unit)));
  };

  const submitTo = (event: React.FormEvent) => {
    event.preventDefault();
    const iso = localInputToIso(target);
    if (!iso || !clock.data) return setFormError('Choose a date and time');
    const seconds = Math.round((new Date(iso).getTime() - new Date(clock.data.now).getTime()) / 1000);
    if (seconds < 1) return setFormError('Choose a time after the test time: the clock only moves forward (reset it to go back)');
    advanceBy(seconds);
  };

  if (clock.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading the test clock" />
      </Center>
    );
  }
  if (clock.isError) return <ErrorAlert title="The test clock could not be loaded" error={clock.error} onRetry={() => void clock.refetch()} />;

  return (
    <Stack gap="md">
      <dl className="sandbox-clock" aria-label="Test clock">
        <div>
          <dt>Test time</dt>
          <dd data-testid="test-clock-now">{formatTime(clock.data.now)}</dd>
        </div>
        <div>
          <dt>Offset</dt>
          <dd data-testid="test-clock-offset">
            {describeOffset(clock.data.offset_seconds)}
            {clock.data.offset_seconds > 0 && <Text span size="xs" c="dimmed">{` (${clock.data.offset_seconds} s)`}</Text>}
          </dd>
        </div>
      </dl>
      {canAct && (
        <>
          <form onSubmit={submitBy} noValidate>
            <Group align="flex-end" wrap="wrap" gap="sm">
              <TextInput label="Advance by" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.currentTarget.value)} style={{ flex: '0 1 8rem' }} />
              <NativeSelect label="Unit" data={UNITS} value={unit} onChange={(event) => setUnit(event.currentTarget.value)} style={{ flex: '0 1 8rem' }} />
              <Button type="submit" loading={advance.isPending} disabled={reset.isPending}>
                Advance
              </Button>
            </Group>
          </form>
          <form onSubmit={submitTo} noValidate>
            <Group align="flex-end" wrap="wrap" gap="sm">
              <TextInput label="Advance to" type="datetime-local" value={target} onChange={(event) => setTarget(event.currentTarget.value)} style={{ flex: '0 1 16rem' }} />
              <Button type="submit" variant="light" loading={advance.isPending} disabled={reset.isPending || !target}>
                Advance to date
              </Button>
              <Button variant="default" onClick={() => reset.mutate(undefined, { onSuccess: () => setRulesRun(null) })} loading={reset.isPending} disabled={advance.isPending}>
                Reset to real time
              </Button>
            </Group>
          </form>
          {formError && (
            <Text size="sm" c="red" role="alert">
              {formError}
            </Text>
          )}
          {advance.isError && <ErrorAlert title="The clock was not advanced" error={advance.error} />}
          {reset.isError && <ErrorAlert title="The clock was not reset" error={reset.error} />}
        </>
      )}
      {rulesRun && (
        <div>
          <Text size="sm" fw={600} id="rules-run-caption">
            What the time rules did at the new time
          </Text>
          <Table.ScrollContainer minWidth={320}>
            <Table aria-labelledby="rules-run-caption" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Rule</Table.Th>
                  <Table.Th ta="right">Objects moved</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(Object.keys(RULE_LABELS) as Array<keyof RulesRun>).map((rule) => (
                  <Table.Tr key={rule}>
                    <Table.Td>{RULE_LABELS[rule]}</Table.Td>
                    <Table.Td ta="right">{rulesRun[rule]}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </div>
      )}
    </Stack>
  );
}
