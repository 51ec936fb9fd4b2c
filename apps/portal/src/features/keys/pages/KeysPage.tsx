import { Button, Center, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { PortalKey } from '../api';
import { CreateKeyModal } from '../components/CreateKeyModal';
import { KeysTable } from '../components/KeysTable';
import { RevokeKeyModal } from '../components/RevokeKeyModal';
import { RotateKeyModal } from '../components/RotateKeyModal';
import { SecretModal } from '../components/SecretModal';
import { useKeys } from '../hooks/useKeys';

/** The session mode's API keys: list, create (secret shown once), rotate, revoke. */
export function KeysPage() {
  const keys = useKeys();
  const me = useMe();
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<PortalKey | null>(null);
  const [revoking, setRevoking] = useState<PortalKey | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const mode = me.data?.session.mode ?? 'test';
  const canManage = me.data?.account?.role !== 'viewer';

  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys for ${mode} mode. A key's secret is shown once, when it is created or rotated.`}
        actions={canManage && <Button onClick={() => setCreating(true)}>Create key</Button>}
      />
      {keys.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading keys" />
        </Center>
      )}
      {keys.isError && <ErrorAlert title="The keys could not be loaded" error={keys.error} onRetry={() => void keys.refetch()} />}
      {keys.isSuccess && keys.data.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No {mode} keys yet</Text>
          <Text size="sm" c="dimmed">
            Create a key to call the API from your server.
          </Text>
        </Paper>
      )}
      {keys.isSuccess && keys.data.length > 0 && <KeysTable keys={keys.data} canManage={canManage} onRotate={setRotating} onRevoke={setRevoking} />}
      <CreateKeyModal opened={creating} onClose={() => setCreating(false)} onCreated={setSecret} />
      <RotateKeyModal apiKey={rotating} onClose={() => setRotating(null)} onRotated={setSecret} />
      <RevokeKeyModal apiKey={revoking} onClose={() => setRevoking(null)} />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
