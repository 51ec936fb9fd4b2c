import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney } from '../../../shared/format/money';
import type { AnalyticsCurrencyTopCustomers } from '../api';

/** The customers with the largest successful volume in the range (the API's top 5), largest first. */
export function TopCustomersTable({ ranking }: { ranking: AnalyticsCurrencyTopCustomers }) {
  if (ranking.customers.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No customer paid in {ranking.currency} in this range.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped aria-label={`Top customers (${ranking.currency})`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Customer</Table.Th>
            <Table.Th ta="right">Payments</Table.Th>
            <Table.Th ta="right">Volume</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ranking.customers.map((customer) => (
            <Table.Tr key={customer.customer_reference}>
              <Table.Td>
                <Anchor component={Link} to={`/customers/${customer.customer_reference}`} size="sm" style={{ wordBreak: 'break-all' }}>
                  {customer.email}
                </Anchor>
                <Text size="xs" c="dimmed" ff="monospace">
                  {customer.customer_reference}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{customer.count}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(customer.volume, ranking.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
