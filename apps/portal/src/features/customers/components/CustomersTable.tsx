import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import type { Customer } from '../api';

export function CustomersTable({ customers }: { customers: Customer[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Customers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr key={customer.reference}>
              <Table.Td>
                <Anchor component={Link} to={`/customers/${encodeURIComponent(customer.reference)}`} size="sm" style={{ wordBreak: 'break-all' }}>
                  {customer.email}
                </Anchor>
              </Table.Td>
              <Table.Td>{customer.name ?? '—'}</Table.Td>
              <Table.Td>{customer.phone ?? '—'}</Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                  {customer.reference}
                </Text>
              </Table.Td>
              <Table.Td>{formatTime(customer.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
