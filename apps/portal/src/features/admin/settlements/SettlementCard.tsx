import { Alert, Anchor, Badge, Button, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import type { AdminSettlement } from './api';
import { SettlementStatusBadge } from './SettlementStatusBadge';

export interface SettlementCardProps {
  settlement: AdminSettlement;
  /** The account's other recent settlements (newest first); undefined while they load. */
  history: AdminSettlement[] | undefined;
  /** The signed-in person's e-mail: their own request and their own approval are told apart. */
  myEmail: string;
  canDecide: boolean;
  onApprove: (settlement: AdminSettlement) => void;
  onReject: (settlement: AdminSettlement) => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

const sameEmail = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** One withdrawal waiting in the queue: what staff decide with, the two-person rule, and the actions a role may use. */
export function SettlementCard({ settlement: s, history, myEmail, canDecide, onApprove, onReject }: SettlementCardProps) {
  const approvals = s.decisions.filter((d) => d.decision === 'approve');
  const ownRequest = sameEmail(s.requested_by, myEmail);
  const approvedByMe = approvals.some((d) => sameEmail(d.by, myEmail));
  const headingId = `settlement-${s.reference}`;

  return (
    <Paper component="article" withBorder p="md" radius="md" aria-labelledby={headingId} data-testid={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={2} size="h4" id={headingId}>
              {formatMoney(s.amount, s.currency)} for {s.developer_name}
            </Title>
            <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {s.reference}
            </Text>
          </div>
          <Badge color={approvals.length > 0 ? 'blue' : 'gray'} variant="light" miw="max-content" data-testid="approval-count">
            {approvals.length} of {s.approvals_required} approval{s.approvals_required === 1 ? '' : 's'}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Field label="Account">
            <Anchor component={Link} to={`/admin/developers/${s.developer_id}`}>
              {s.developer_name}
            </Anchor>
          </Field>
          <Field label="Requested by">
            {s.requested_by ?? 'Automatic settlement'}
            {s.requested_ip && (
              <Text size="xs" c="dimmed" component="span" display="block">
                from {s.requested_ip}
              </Text>
            )}
          </Field>
          <Field label="Requested">{formatTime(s.created_at)}</Field>
          <Field label="Available balance now">{formatMoney(s.available_balance, s.currency)}</Field>
          <Field label="Pays to">
            {s.bank_account.account_name} ···{s.bank_account.account_number_last4} · bank {s.bank_account.bank_code}
          </Field>
          <Field label="Two-person rule">
            {s.approvals_required > 1 ? `${s.approvals_required} different people must approve` : 'One approval pays it'}
          </Field>
        </SimpleGrid>
        {s.decisions.length > 0 && (
          <List size="sm" aria-label="Decisions so far">
            {s.decisions.map((d) => (
              <List.Item key={`${d.by}-${d.at}`}>
                {d.decision === 'approve' ? 'Approved' : 'Rejected'} by {d.by} · {formatTime(d.at)}
                {d.ip ? ` · from ${d.ip}` : ''}
              </List.Item>
            ))}
          </List>
        )}
        {ownRequest && (
          <Alert color="blue" role="status" p="xs">
            <Text size="sm">You requested this withdrawal, so you cannot approve it: another staff member must.</Text>
          </Alert>
        )}
        {!ownRequest && approvedByMe && (
          <Text size="sm" c="dimmed">
            You approved it. It waits for an approval from someone else.
          </Text>
        )}
        {canDecide && (
          <Group gap="xs">
            {!ownRequest && !approvedByMe && (
              <Button size="sm" onClick={() => onApprove(s)} aria-label={`Approve ${s.reference}`}>
                Approve
              </Button>
            )}
            <Button color="red" variant="light" size="sm" onClick={() => onReject(s)} aria-label={`Reject ${s.reference}`}>
              Reject
            </Button>
          </Group>
        )}
        <AccountHistory settlement={s} history={history} />
      </Stack>
    </Paper>
  );
}

function AccountHistory({ settlement, history }: { settlement: AdminSettlement; history: AdminSettlement[] | undefined }) {
  if (history === undefined) return null;
  if (history.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No other recent settlements of {settlement.developer_name}.
      </Text>
    );
  }
  return (
    <div>
      <Text size="sm" fw={600} mb={4}>
        Recent settlements of this account
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label={`Recent settlements of ${settlement.developer_name}`} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Requested</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Reference</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.map((h) => (
              <Table.Tr key={h.reference}>
                <Table.Td>{formatTime(h.created_at)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(h.amount, h.currency)}
                </Table.Td>
                <Table.Td>
                  <SettlementStatusBadge status={h.status} />
                </Table.Td>
                <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {h.reference}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}
