import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import type { LedgerEntry } from '../api';

/** Where an entry's cause is shown in the portal, by its reference's prefix; null when it has no page yet. */
export function causeLink(reference: string): string | null {
  if (reference.startsWith('PAY-')) return `/payments/${encodeURIComponent(reference)}`;
  if (reference.startsWith('RFD_')) return `/refunds/${encodeURIComponent(reference)}`;
  return null;
}

export function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped aria-label="Ledger entries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Balance</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Caused by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const link = causeLink(entry.reference);
            const sign = entry.direction === 'credit' ? '+' : '−';
            return (
              <Table.Tr key={entry.id}>
                <Table.Td>{formatTime(entry.created_at)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={entry.direction === 'credit' ? 'green' : 'orange'} miw="max-content">
                    {entry.type.replaceAll('_', ' ')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.description}</Text>
                </Table.Td>
                <Table.Td>{entry.balance_type}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  <span aria-label={`${entry.direction} ${formatMoney(entry.amount, entry.currency)}`}>
                    {sign}
                    {formatMoney(entry.amount, entry.currency)}
                  </span>
                </Table.Td>
                <Table.Td>
                  {link ? (
                    <Anchor component={Link} to={link} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                      {entry.reference}
                    </Anchor>
                  ) : (
                    <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                      {entry.reference}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
