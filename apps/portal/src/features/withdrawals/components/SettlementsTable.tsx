import { Badge, Table, Text } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import type { Settlement, SettlementStatus } from '../api';

const STATUS: Record<SettlementStatus, { label: string; color: string }> = {
  pending_approval: { label: 'pending approval', color: 'yellow' },
  approved: { label: 'approved', color: 'blue' },
  processing: { label: 'processing', color: 'cyan' },
  completed: { label: 'completed', color: 'green' },
  failed: { label: 'failed', color: 'red' },
  rejected: { label: 'rejected', color: 'gray' },
};

/** Withdrawals and auto-settlements, newest first, with their status and why one failed or was rejected. */
export function SettlementsTable({ settlements }: { settlements: Settlement[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-label="Withdrawals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Requested</Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Origin</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {settlements.map((s) => (
            <Table.Tr key={s.reference}>
              <Table.Td>{formatTime(s.created_at)}</Table.Td>
              <Table.Td ff="monospace" fz="sm" style={{ wordBreak: 'break-all' }}>
                {s.reference}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(s.amount, s.currency)}
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS[s.status]?.color ?? 'gray'} variant="light" miw="max-content">
                  {STATUS[s.status]?.label ?? s.status}
                </Badge>
                {(s.failure_reason || s.rejection_reason) && (
                  <Text size="xs" c="dimmed">
                    {s.rejection_reason ?? s.failure_reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {s.bank_account.account_name} ···{s.bank_account.account_number_last4}
              </Table.Td>
              <Table.Td>{s.origin === 'auto' ? 'automatic' : 'requested'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
