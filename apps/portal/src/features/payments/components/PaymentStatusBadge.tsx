import { Badge } from '@mantine/core';
import type { PaymentStatus } from '../api';

const COLORS: Record<PaymentStatus, string> = {
  success: 'green',
  pending: 'blue',
  scheduled: 'cyan',
  failed: 'red',
  abandoned: 'gray',
  cancelled: 'gray',
};

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" miw="max-content">
      {status}
    </Badge>
  );
}
