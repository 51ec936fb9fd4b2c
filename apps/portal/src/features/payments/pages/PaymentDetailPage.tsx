import { Anchor, Button, Center, Grid, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useMe } from '../../auth';
import { isApiError } from '../../../shared/api-client';
import { formatMoney, fromMinorUnits, minorDigits } from '../../../shared/format/money';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { Payment } from '../api';
import { PaymentStatusBadge } from '../components/PaymentStatusBadge';
import { PaymentTimeline } from '../components/PaymentTimeline';
import { RefundModal } from '../components/RefundModal';
import { refundableMinor } from '../refundable';
import { usePayment, usePaymentRefunds } from '../hooks/usePayments';
import { canRefund } from '../permissions';

function BackLink() {
  return (
    <Anchor component={Link} to="/payments" size="sm">
      ← All payments
    </Anchor>
  );
}

function Summary({ payment }: { payment: Payment }) {
  const money = (amount: number) => formatMoney(amount, payment.currency);
  const rows: [string, ReactNode][] = [
    ['Status', <PaymentStatusBadge key="status" status={payment.status} />],
    ['Amount', money(payment.amount)],
    ['Net amount', payment.net_amount === null ? '—' : money(payment.net_amount)],
    ['Fees', payment.fees ? `${money(payment.fees.platform)} platform · ${money(payment.fees.provider)} provider` : '—'],
    ['Refunded', money(payment.amount_refunded)],
    ['Customer', <Anchor key="customer" component={Link} to={`/customers/${encodeURIComponent(payment.customer_reference)}`} size="sm" style={{ wordBreak: 'break-all' }}>{payment.email}</Anchor>],
    ['Channel', payment.channel ?? '—'],
    ['Card', payment.authorization?.last4 ? `${payment.authorization.brand ?? 'Card'} ending ${payment.authorization.last4}` : '—'],
    ['Gateway response', payment.gateway_response ?? '—'],
    ['Created', formatTime(payment.created_at)],
    ['Paid', formatTime(payment.paid_at)],
  ];
  return (
    <Table aria-label="Payment summary" withRowBorders={false} layout="fixed">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w={140}>
              {label}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One payment: its summary, a timeline (initialized, paid, refunds) and — for roles that may — a refund. */
export function PaymentDetailPage() {
  const { reference = '' } = useParams();
  const me = useMe();
  const payment = usePayment(reference);
  const refunds = usePaymentRefunds(reference, payment.isSuccess);
  const [refunding, setRefunding] = useState(false);

  if (payment.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the payment" />
      </Center>
    );
  }
  if (payment.isError) {
    // Another account's payment is answered like a missing one: both are "not found".
    if (isApiError(payment.error) && payment.error.status === 404) {
      return (
        <>
          <PageHeader title="Payment not found" />
          <Text mb="md">
            There is no {me.data?.session.mode ?? 'test'} payment <code>{reference}</code> in this account.
          </Text>
          <BackLink />
        </>
      );
    }
    return (
      <>
        <PageHeader title="Payment" />
        <ErrorAlert title="The payment could not be loaded" error={payment.error} onRetry={() => void payment.refetch()} />
      </>
    );
  }

  const data = payment.data;
  const left = refundableMinor(data);
  const mayRefund = canRefund(me.data?.account?.role) && data.status === 'success' && left > 0n;
  return (
    <>
      <BackLink />
      <PageHeader
        title="Payment"
        description={
          <>
            <Text span ff="monospace" style={{ wordBreak: 'break-all' }}>
              {data.reference}
            </Text>{' '}
            · {formatMoney(data.amount, data.currency)}
            {data.status === 'success' && left > 0n && data.amount_refunded > 0 && ` · ${formatMoney(fromMinorUnits(left, minorDigits(data.currency)), data.currency)} refundable`}
          </>
        }
        actions={mayRefund && <Button onClick={() => setRefunding(true)}>Refund</Button>}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              Details
            </Title>
            <Summary payment={data} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              Timeline
            </Title>
            {refunds.isPending && <Loader size="sm" aria-label="Loading the refunds" />}
            {refunds.isError && <ErrorAlert title="The refunds could not be loaded" error={refunds.error} onRetry={() => void refunds.refetch()} />}
            {refunds.isSuccess && <PaymentTimeline payment={data} refunds={refunds.data} />}
          </Paper>
        </Grid.Col>
      </Grid>
      {mayRefund && <RefundModal payment={data} opened={refunding} onClose={() => setRefunding(false)} />}
    </>
  );
}
