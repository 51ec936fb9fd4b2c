import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { SCANS, type ScanName } from '../api';
import { useRunScan } from '../hooks/useSandbox';

/** The scheduler's scans, run now for this account's test objects (at the test clock's time). */
export function ScansPanel({ canAct }: { canAct: boolean }) {
  const run = useRunScan();
  const [last, setLast] = useState<{ scan: ScanName; affected: number } | null>(null);

  return (
    <Stack gap="xs">
      {SCANS.map(({ scan, label, description }) => (
        <Group key={scan} justify="space-between" wrap="wrap" gap="xs">
          <div style={{ flex: '1 1 14rem' }}>
            <Text size="sm" fw={600}>
              {label}
            </Text>
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          </div>
          {canAct && (
            <Button
              variant="light"
              size="xs"
              aria-label={`Run the ${label.toLowerCase()} scan`}
              loading={run.isPending && run.variables === scan}
              disabled={run.isPending}
              onClick={() => run.mutate(scan, { onSuccess: (result) => setLast({ scan, affected: result.affected }) })}
            >
              Run now
            </Button>
          )}
        </Group>
      ))}
      {last && !run.isError && (
        <Text size="sm" role="status">
          {SCANS.find((s) => s.scan === last.scan)?.label}: {last.affected} {last.affected === 1 ? 'object' : 'objects'} changed.
        </Text>
      )}
      {run.isError && <ErrorAlert title="The scan did not run" error={run.error} />}
    </Stack>
  );
}
