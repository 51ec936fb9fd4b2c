import { Table } from '@mantine/core';
import { formatMoney } from '../../../shared/format/money';
import type { WalletBalance } from '../api';

/** The four balances per currency: available (spendable), pending (not yet settled to the wallet), reserved (payouts in flight), total. */
export function BalancesTable({ balances }: { balances: WalletBalance[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Balances" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Available</Table.Th>
            <Table.Th ta="right">Pending</Table.Th>
            <Table.Th ta="right">Reserved</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {balances.map((balance) => (
            <Table.Tr key={balance.currency}>
              <Table.Th scope="row">{balance.currency}</Table.Th>
              <Table.Td ta="right">{formatMoney(balance.available_balance, balance.currency)}</Table.Td>
              <Table.Td ta="right">{formatMoney(balance.pending_balance, balance.currency)}</Table.Td>
              <Table.Td ta="right">{formatMoney(balance.reserved_balance, balance.currency)}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {formatMoney(balance.total_balance, balance.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
