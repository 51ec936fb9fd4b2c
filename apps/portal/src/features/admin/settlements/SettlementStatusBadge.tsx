import { Badge } from '@mantine/core';
import type { SettlementStatus } from './api';

const STATUS: Record<SettlementStatus, { label: string; color: string }> = {
  pending_approval: { label: 'pending approval', color: 'yellow' },
  approved: { label: 'approved', color: 'blue' },
  processing: { label: 'processing', color: 'cyan' },
  completed: { label: 'completed', color: 'green' },
  failed: { label: 'failed', color: 'red' },
  rejected: { label: 'rejected', color: 'gray' },
};

export function SettlementStatusBadge({ status }: { status: SettlementStatus }) {
  return (
    <Badge color={STATUS[status]?.color ?? 'gray'} variant="light" miw="max-content">
      {STATUS[status]?.label ?? status}
    </Badge>
  );
}
