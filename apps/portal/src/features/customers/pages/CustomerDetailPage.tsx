import { Anchor, Button, Center, Code, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { PaymentsTable, usePayments } from '../../payments';
import type { Customer } from '../api';
import { useCustomer } from '../hooks/useCustomers';

function BackLink() {
  return (
    <Anchor component={Link} to="/customers" size="sm">
      ← All customers
    </Anchor>
  );
}

function Details({ customer }: { customer: Customer }) {
  const rows: [string, string][] = [
    ['Reference', customer.reference],
    ['Name', customer.name ?? '—'],
    ['Phone', customer.phone ?? '—'],
    ['Created', formatTime(customer.created_at)],
  ];
  return (
    <>
      <Table aria-label="Customer details" withRowBorders={false} layout="fixed">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" w={120}>
                {label}
              </Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {Object.keys(customer.metadata).length > 0 && (
        <Code block mt="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} aria-label="Metadata">
          {JSON.stringify(customer.metadata, null, 2)}
        </Code>
      )}
    </>
  );
}

function CustomerPayments({ customer }: { customer: Customer }) {
  const payments = usePayments({ customer: customer.reference });
  const rows = payments.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      {payments.isPending && <Loader size="sm" aria-label="Loading the customer's payments" />}
      {payments.isError && <ErrorAlert title="The payments could not be loaded" error={payments.error} onRetry={() => void payments.refetch()} />}
      {payments.isSuccess && rows.length === 0 && <Text c="dimmed">No payments yet.</Text>}
      {payments.isSuccess && rows.length > 0 && <PaymentsTable payments={rows} label={`Payments of ${customer.email}`} hideCustomer />}
      {payments.hasNextPage && (
        <Center mt="md">
          <Button variant="default" onClick={() => void payments.fetchNextPage()} loading={payments.isFetchingNextPage}>
            Load more
          </Button>
        </Center>
      )}
    </>
  );
}

/** One customer and their payments. */
export function CustomerDetailPage() {
  const { reference = '' } = useParams();
  const customer = useCustomer(reference);
  if (customer.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the customer" />
      </Center>
    );
  }
  if (customer.isError) {
    const missing = isApiError(customer.error) && customer.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Customer not found' : 'Customer'} />
        {missing ? (
          <Text mb="md">
            There is no customer <code>{reference}</code> in this account and mode.
          </Text>
        ) : (
          <ErrorAlert title="The customer could not be loaded" error={customer.error} onRetry={() => void customer.refetch()} />
        )}
        <BackLink />
      </>
    );
  }
  return (
    <>
      <BackLink />
      <PageHeader title="Customer" description={<span style={{ wordBreak: 'break-all' }}>{customer.data.email}</span>} />
      <Paper withBorder p="md" mb="lg">
        <Details customer={customer.data} />
      </Paper>
      <Title order={2} size="h4" mb="sm">
        Payments
      </Title>
      <CustomerPayments customer={customer.data} />
    </>
  );
}
