import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import type { Payment } from '../api';
import { PaymentStatusBadge } from './PaymentStatusBadge';

export interface PaymentsTableProps {
  payments: Payment[];
  /** Accessible name of the table ("Payments", "Payments of ada@example.com"). */
  label?: string;
  /** Hide the customer column (a customer's own page). */
  hideCustomer?: boolean;
}

/** Payments, newest first; the reference opens the payment. */
export function PaymentsTable({ payments, label = 'Payments', hideCustomer = false }: PaymentsTableProps) {
  return (
    <Table.ScrollContainer minWidth={hideCustomer ? 640 : 820}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created</Table.Th>
            <Table.Th>Reference</Table.Th>
            {!hideCustomer && <Table.Th>Customer</Table.Th>}
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Refunded</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.reference}>
              <Table.Td>{formatTime(payment.created_at)}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/payments/${encodeURIComponent(payment.reference)}`} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                  {payment.reference}
                </Anchor>
              </Table.Td>
              {!hideCustomer && (
                <Table.Td>
                  <Anchor component={Link} to={`/customers/${encodeURIComponent(payment.customer_reference)}`} size="sm" style={{ wordBreak: 'break-all' }}>
                    {payment.email}
                  </Anchor>
                </Table.Td>
              )}
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(payment.amount, payment.currency)}
              </Table.Td>
              <Table.Td>
                <PaymentStatusBadge status={payment.status} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {payment.amount_refunded ? formatMoney(payment.amount_refunded, payment.currency) : '—'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
