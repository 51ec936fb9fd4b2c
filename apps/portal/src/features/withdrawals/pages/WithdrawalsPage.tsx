import { Alert, Button, Center, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { useBalances } from '../../wallet';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { AutoSettlementFrequency, SettlementSettings } from '../api';
import { BankAccountForm } from '../components/BankAccountForm';
import { SettlementsTable } from '../components/SettlementsTable';
import { WithdrawalForm } from '../components/WithdrawalForm';
import { useSetAutoSettlement, useSettlements, useSettlementSettings } from '../hooks/useWithdrawals';
import { canManageSettlements } from '../permissions';

const FREQUENCIES: { value: AutoSettlementFrequency; label: string }[] = [
  { value: 'manual', label: 'Manual (only when you ask)' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
];

/**
 * Withdrawals (settlements) to the account's bank account: live mode only. Admins and owners set
 * the bank account and the auto-settlement frequency and request withdrawals; others only read.
 */
export function WithdrawalsPage() {
  const me = useMe();
  const live = me.data?.session.mode === 'live';
  const manage = canManageSettlements(me.data?.account?.role);
  const settings = useSettlementSettings();
  const list = useSettlements(live);
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <>
      <PageHeader title="Withdrawals" description="Money from your live wallet to your bank account. Each withdrawal is approved by the platform's staff before it is paid." />
      {!live && (
        <Alert color="blue" title="Withdrawals are live-mode only" role="status" mb="lg">
          Test mode has no real money to withdraw. Switch to live mode to set your bank account, request withdrawals and see them here.
        </Alert>
      )}
      <section aria-labelledby="settings-heading">
        <Title order={2} size="h4" mb="sm" id="settings-heading">
          Settlement settings
        </Title>
        {settings.isPending && (
          <Center py="md">
            <Loader aria-label="Loading the settlement settings" />
          </Center>
        )}
        {settings.isError && <ErrorAlert title="The settlement settings could not be loaded" error={settings.error} onRetry={() => void settings.refetch()} />}
        {settings.isSuccess && <SettingsPanel settings={settings.data} editable={live && manage} />}
      </section>
      {live && (
        <>
          {manage && (
            <section aria-labelledby="withdraw-heading">
              <Title order={2} size="h4" mt="xl" mb="sm" id="withdraw-heading">
                Request a withdrawal
              </Title>
              {settings.data && !settings.data.account_number_last4 ? (
                <Text size="sm" c="dimmed">
                  Set the settlement bank account first.
                </Text>
              ) : (
                <AvailableWithdrawalForm />
              )}
            </section>
          )}
          <section aria-labelledby="history-heading">
            <Title order={2} size="h4" mt="xl" mb="sm" id="history-heading">
              Withdrawals
            </Title>
            {list.isPending && (
              <Center py="md">
                <Loader aria-label="Loading withdrawals" />
              </Center>
            )}
            {list.isError && <ErrorAlert title="The withdrawals could not be loaded" error={list.error} onRetry={() => void list.refetch()} />}
            {list.isSuccess && rows.length === 0 && (
              <Paper withBorder p="xl" ta="center">
                <Text fw={600}>No withdrawals yet</Text>
                <Text size="sm" c="dimmed">
                  Requested and automatic withdrawals appear here with their status.
                </Text>
              </Paper>
            )}
            {list.isSuccess && rows.length > 0 && (
              <>
                <SettlementsTable settlements={rows} />
                {list.hasNextPage && (
                  <Center mt="md">
                    <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
                      Load more
                    </Button>
                  </Center>
                )}
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}

function AvailableWithdrawalForm() {
  const balances = useBalances();
  const ngn = balances.data?.find((b) => b.currency === 'NGN');
  return <WithdrawalForm available={ngn?.available_balance} />;
}

function SettingsPanel({ settings, editable }: { settings: SettlementSettings; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const schedule = useSetAutoSettlement();
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <div>
          <Text size="sm" c="dimmed">
            Bank account
          </Text>
          {settings.account_number_last4 ? (
            <Text fw={600} data-testid="settlement-account">
              {settings.account_name} · account ending {settings.account_number_last4} · bank {settings.bank_code}
            </Text>
          ) : (
            <Text fw={600}>Not set</Text>
          )}
          {editable && !editing && (
            <Button variant="default" size="xs" mt="xs" onClick={() => setEditing(true)}>
              {settings.account_number_last4 ? 'Change the bank account' : 'Set the bank account'}
            </Button>
          )}
          {editable && editing && (
            <Stack mt="sm">
              <BankAccountForm onDone={() => setEditing(false)} />
            </Stack>
          )}
        </div>
        <div>
          {editable ? (
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label="Automatic withdrawals"
                description="Withdraw the available balance, less the platform's minimum, on a schedule."
                data={FREQUENCIES}
                value={settings.auto_settlement_frequency}
                onChange={(value) => value && schedule.mutate(value as AutoSettlementFrequency)}
                allowDeselect={false}
                disabled={schedule.isPending}
                maw={320}
              />
              {schedule.isPending && <Loader size="sm" aria-label="Saving" />}
            </Group>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                Automatic withdrawals
              </Text>
              <Text fw={600}>{FREQUENCIES.find((f) => f.value === settings.auto_settlement_frequency)?.label ?? settings.auto_settlement_frequency}</Text>
            </>
          )}
          {schedule.isError && <ErrorAlert title="The frequency was not saved" error={schedule.error} />}
        </div>
      </Stack>
    </Paper>
  );
}
