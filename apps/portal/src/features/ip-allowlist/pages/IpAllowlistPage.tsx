import { Button, Center, Loader, Paper, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useMe } from '../../auth';
import { useKeys } from '../../keys';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { AllowlistEntry } from '../api';
import { AddEntryModal } from '../components/AddEntryModal';
import { AllowlistTable } from '../components/AllowlistTable';
import { RemoveEntryModal } from '../components/RemoveEntryModal';
import { useIpAllowlist } from '../hooks/useIpAllowlist';

/** The account's IP allowlist (both modes): list, add, remove. An empty list allows every address. */
export function IpAllowlistPage() {
  const entries = useIpAllowlist();
  const keys = useKeys();
  const me = useMe();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AllowlistEntry | null>(null);
  const canManage = me.data?.account?.role !== 'viewer';

  const keyLabels = useMemo(() => new Map((keys.data ?? []).map((key) => [key.id, key.name ? `${key.hint} (${key.name})` : key.hint])), [keys.data]);
  // Only keys that still work can usefully be restricted.
  const keyOptions = useMemo(
    () => (keys.data ?? []).filter((key) => key.status === 'active' || key.status === 'expiring').map((key) => ({ value: key.id, label: keyLabels.get(key.id) ?? key.hint })),
    [keys.data, keyLabels],
  );

  return (
    <>
      <PageHeader
        title="IP allowlist"
        description="Requests with your keys are accepted only from these addresses. With no entries, every address is allowed."
        actions={canManage && <Button onClick={() => setAdding(true)}>Add entry</Button>}
      />
      {entries.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the allowlist" />
        </Center>
      )}
      {entries.isError && <ErrorAlert title="The allowlist could not be loaded" error={entries.error} onRetry={() => void entries.refetch()} />}
      {entries.isSuccess && entries.data.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No entries: every address is allowed</Text>
          <Text size="sm" c="dimmed">
            Add your servers' addresses to refuse requests with your keys from anywhere else.
          </Text>
        </Paper>
      )}
      {entries.isSuccess && entries.data.length > 0 && <AllowlistTable entries={entries.data} keyLabels={keyLabels} canManage={canManage} onRemove={setRemoving} />}
      <AddEntryModal opened={adding} onClose={() => setAdding(false)} keyOptions={keyOptions} />
      <RemoveEntryModal entry={removing} isLast={entries.data?.length === 1} onClose={() => setRemoving(null)} />
    </>
  );
}
