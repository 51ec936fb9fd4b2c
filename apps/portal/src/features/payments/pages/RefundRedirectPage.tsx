import { Anchor, Center, Loader, Text } from '@mantine/core';
import { Link, Navigate, useParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { useRefund } from '../hooks/usePayments';

/** `#/refunds/RFD_…` (a refund's ledger entry links here): the refund is shown on its payment's page. */
export function RefundRedirectPage() {
  const { reference = '' } = useParams();
  const refund = useRefund(reference);
  if (refund.isSuccess) return <Navigate to={`/payments/${encodeURIComponent(refund.data.payment_reference)}`} replace />;
  if (refund.isError) {
    const missing = isApiError(refund.error) && refund.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Refund not found' : 'Refund'} />
        {missing ? (
          <Text mb="md">
            There is no refund <code>{reference}</code> in this account.
          </Text>
        ) : (
          <ErrorAlert title="The refund could not be loaded" error={refund.error} onRetry={() => void refund.refetch()} />
        )}
        <Anchor component={Link} to="/payments" size="sm">
          All payments
        </Anchor>
      </>
    );
  }
  return (
    <Center py="xl">
      <Loader aria-label="Loading the refund" />
    </Center>
  );
}
