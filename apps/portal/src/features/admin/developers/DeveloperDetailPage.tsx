import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { CURRENCIES } from '../../../shared/currencies';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { usePlatformAccess } from '../permissions';
import type { AdminDeveloper } from './api';
import { DeveloperStatusBadges } from './DeveloperStatusBadges';
import { FeeOverrideModal } from './FeeOverrideModal';
import { useDeveloper, useReactivateDeveloper, useSuspendDeveloper, useVerifyEmail, useVerifyIdentity } from './hooks';
import { StaffActionModal } from './StaffActionModal';

/** One developer account as staff manage it: verification, suspension, fee overrides per currency and their history. */
export function DeveloperDetailPage() {
  const { id = '' } = useParams();
  const developer = useDeveloper(id);

  if (developer.isPending) {
    return (
      <>
        <PageHeader title="Developer" />
        <Center py="xl">
          <Loader aria-label="Loading the developer account" />
        </Center>
      </>
    );
  }
  if (developer.isError) {
    const missing = isApiError(developer.error) && developer.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Developer not found' : 'Developer'} />
        {missing ? (
          <Text>
            There is no developer account {id}.{' '}
            <Anchor component={Link} to="/admin/developers">
              Back to the developers
            </Anchor>
          </Text>
        ) : (
          <ErrorAlert title="The developer account could not be loaded" error={developer.error} onRetry={() => void developer.refetch()} />
        )}
      </>
    );
  }
  return <DeveloperDetail developer={developer.data} />;
}

function DeveloperDetail({ developer }: { developer: AdminDeveloper }) {
  return (
    <>
      <PageHeader
        title={developer.name}
        description={
          <>
            {developer.email} · created {formatTime(developer.created_at)}
            <Text component="span" display="block" size="xs" ff="monospace" c="dimmed">
              {developer.id}
            </Text>
          </>
        }
        actions={
          <Button component={Link} to="/admin/developers" variant="default">
            All developers
          </Button>
        }
      />
      <Stack gap="xl">
        <DeveloperStatusBadges status={developer.status} emailVerified={developer.email_verified} identityVerified={developer.identity_verified} />
        <SuspensionSection developer={developer} />
        <VerificationSection developer={developer} />
        <FeesSection developer={developer} />
      </Stack>
    </>
  );
}

function SuspensionSection({ developer }: { developer: AdminDeveloper }) {
  const { can } = usePlatformAccess();
  const [suspending, setSuspending] = useState(false);
  const [reactivating, setReactivating] = useState(false);
  const suspend = useSuspendDeveloper(developer.id);
  const reactivate = useReactivateDeveloper(developer.id);
  const canSuspend = can('platform:developers:suspend');
  const suspended = developer.status === 'suspended';
  const closeSuspend = () => {
    suspend.reset();
    setSuspending(false);
  };
  const closeReactivate = () => {
    reactivate.reset();
    setReactivating(false);
  };
  return (
    <section aria-labelledby="status-heading">
      <Title order={2} size="h4" mb="sm" id="status-heading">
        Account status
      </Title>
      {suspended ? (
        <Alert color="red" title={`Suspended ${formatTime(developer.suspended_at)}`} role="status">
          <Text size="sm">{developer.suspension_reason}</Text>
          <Text size="sm" mt="xs">
            Its API keys are refused (403 account_suspended) and its members cannot use the account’s pages.
          </Text>
        </Alert>
      ) : (
        <Text size="sm">Active: its keys and its members’ pages work.</Text>
      )}
      {canSuspend && (
        <Group mt="sm">
          {suspended ? (
            <Button variant="default" onClick={() => setReactivating(true)}>
              Reactivate account
            </Button>
          ) : (
            <Button color="red" variant="light" onClick={() => setSuspending(true)}>
              Suspend account
            </Button>
          )}
        </Group>
      )}
      <StaffActionModal
        opened={suspending}
        title="Suspend account"
        textLabel="Reason"
        textDescription="Kept on the account and in the audit log."
        textRequired
        confirmLabel="Suspend account"
        color="red"
        pending={suspend.isPending}
        error={suspend.error}
        errorTitle="The account was not suspended"
        onClose={closeSuspend}
        onConfirm={(reason) =>
          reason &&
          suspend.mutate(reason, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: `${developer.name} is suspended.` });
              closeSuspend();
            },
          })
        }
      >
        <Text size="sm">{developer.name}’s API keys will be refused at once, in both modes, until the account is reactivated.</Text>
      </StaffActionModal>
      <StaffActionModal
        opened={reactivating}
        title="Reactivate account"
        confirmLabel="Reactivate account"
        pending={reactivate.isPending}
        error={reactivate.error}
        errorTitle="The account was not reactivated"
        onClose={closeReactivate}
        onConfirm={() =>
          reactivate.mutate(undefined, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: `${developer.name} is active again.` });
              closeReactivate();
            },
          })
        }
      >
        <Text size="sm">{developer.name}’s keys and pages work again at once.</Text>
      </StaffActionModal>
    </section>
  );
}

function VerificationSection({ developer }: { developer: AdminDeveloper }) {
  const { can } = usePlatformAccess();
  const [verifying, setVerifying] = useState<'email' | 'identity' | null>(null);
  const verifyEmail = useVerifyEmail(developer.id);
  const verifyIdentity = useVerifyIdentity(developer.id);
  const canManage = can('platform:developers:manage');
  const mutation = verifying === 'email' ? verifyEmail : verifyIdentity;
  const close = () => {
    verifyEmail.reset();
    verifyIdentity.reset();
    setVerifying(null);
  };
  return (
    <section aria-labelledby="verification-heading">
      <Title order={2} size="h4" mb="sm" id="verification-heading">
        Verification
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="md">
          <Group justify="space-between" gap="xs">
            <Text fw={600}>E-mail</Text>
            <VerifiedBadge verified={developer.email_verified} at={developer.email_verified_at} />
          </Group>
          <Text size="sm" c="dimmed" mt="xs">
            Test mode opens once the account’s e-mail is verified (the owner accepting the invitation verifies it).
          </Text>
          {canManage && !developer.email_verified && (
            <Button mt="sm" size="xs" onClick={() => setVerifying('email')}>
              Verify e-mail
            </Button>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Group justify="space-between" gap="xs">
            <Text fw={600}>Identity</Text>
            <VerifiedBadge verified={developer.identity_verified} at={developer.identity_verified_at} />
          </Group>
          <Text size="sm" c="dimmed" mt="xs">
            Live mode opens once identity verification is complete.
          </Text>
          {canManage && !developer.identity_verified && (
            <Button mt="sm" size="xs" onClick={() => setVerifying('identity')}>
              Verify identity
            </Button>
          )}
        </Paper>
      </SimpleGrid>
      <StaffActionModal
        opened={verifying !== null}
        title={verifying === 'email' ? 'Verify e-mail' : 'Verify identity'}
        textLabel="Note"
        textDescription="Optional: what was checked, kept in the audit log."
        textRequired={false}
        confirmLabel={verifying === 'email' ? 'Mark e-mail verified' : 'Mark identity verified'}
        pending={mutation.isPending}
        error={mutation.error}
        errorTitle="The verification was not recorded"
        onClose={close}
        onConfirm={(note) =>
          mutation.mutate(note, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: verifying === 'email' ? `${developer.name}’s e-mail is verified.` : `${developer.name} can now use live mode.` });
              close();
            },
          })
        }
      >
        <Text size="sm">
          {verifying === 'email'
            ? `${developer.name} will be able to use test mode.`
            : `${developer.name} will be able to switch to live mode and take real payments.`}
        </Text>
      </StaffActionModal>
    </section>
  );
}

function FeesSection({ developer }: { developer: AdminDeveloper }) {
  const { can } = usePlatformAccess();
  const [feeCurrency, setFeeCurrency] = useState<string | null>(null);
  const fees = new Map(developer.fee_overrides.map((f) => [f.currency, f.amount]));
  const canWriteFees = can('platform:fees:write');
  const fee = (amount: number | null, currency: string) => (amount === null ? 'Default' : formatMoney(amount, currency));
  return (
    <>
      <section aria-labelledby="fees-heading">
        <Title order={2} size="h4" mb="xs" id="fees-heading">
          Platform fees
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          A flat fee per successful transaction. Currencies without an override pay the default platform fee.
        </Text>
        <Table.ScrollContainer minWidth={360}>
          <Table striped aria-label="Platform fee overrides">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Currency</Table.Th>
                <Table.Th ta="right">Fee per transaction</Table.Th>
                {canWriteFees && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {CURRENCIES.map((currency) => {
                const amount = fees.get(currency);
                return (
                  <Table.Tr key={currency}>
                    <Table.Td>{currency}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {fee(amount ?? null, currency)}
                    </Table.Td>
                    {canWriteFees && (
                      <Table.Td ta="right">
                        <Button size="xs" variant="default" onClick={() => setFeeCurrency(currency)} aria-label={`Set the ${currency} fee`}>
                          Set fee
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </section>
      <section aria-labelledby="fee-history-heading">
        <Title order={2} size="h4" mb="sm" id="fee-history-heading">
          Fee history
        </Title>
        {developer.fee_override_history.length === 0 ? (
          <Text size="sm" c="dimmed">
            No fee override was ever set for this account.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label="Fee override history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Changed</Table.Th>
                  <Table.Th>Currency</Table.Th>
                  <Table.Th ta="right">From</Table.Th>
                  <Table.Th ta="right">To</Table.Th>
                  <Table.Th>By</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {developer.fee_override_history.map((change) => (
                  <Table.Tr key={`${change.currency}-${change.changed_at}`}>
                    <Table.Td>{formatTime(change.changed_at)}</Table.Td>
                    <Table.Td>{change.currency}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {fee(change.previous_amount, change.currency)}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {fee(change.amount, change.currency)}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{change.changed_by}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </section>
      <FeeOverrideModal developerId={developer.id} currency={feeCurrency} current={feeCurrency ? (fees.get(feeCurrency) ?? null) : null} onClose={() => setFeeCurrency(null)} />
    </>
  );
}

function VerifiedBadge({ verified, at }: { verified: boolean; at: string | null }) {
  return (
    <Badge color={verified ? 'green' : 'gray'} variant="light" miw="max-content" title={at ? formatTime(at) : undefined}>
      {verified ? 'verified' : 'not verified'}
    </Badge>
  );
}
