import { Button, Center, Group, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { SigningSecretModal } from '../components/SigningSecretModal';
import { WebhookFormModal } from '../components/WebhookFormModal';
import { WebhooksTable } from '../components/WebhooksTable';
import { canManageWebhooks } from '../events';
import { useWebhooks } from '../hooks/useWebhooks';

/** The session mode's webhook endpoints; add one (its secret shown once); the signature debugger. */
export function WebhooksPage() {
  const me = useMe();
  const webhooks = useWebhooks();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const mode = me.data?.session.mode ?? 'test';
  const canManage = canManageWebhooks(me.data?.account?.role);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Endpoints that receive ${mode}-mode events, signed with their own secret.`}
        actions={
          <Group gap="xs">
            <Button component={Link} to="/webhooks/debugger" variant="default">
              Signature debugger
            </Button>
            {canManage && <Button onClick={() => setAdding(true)}>Add endpoint</Button>}
          </Group>
        }
      />
      {webhooks.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading webhook endpoints" />
        </Center>
      )}
      {webhooks.isError && <ErrorAlert title="The endpoints could not be loaded" error={webhooks.error} onRetry={() => void webhooks.refetch()} />}
      {webhooks.isSuccess && webhooks.data.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No {mode} endpoints yet</Text>
          <Text size="sm" c="dimmed">
            {canManage ? 'Add an endpoint to be told when payments, refunds and transfers happen.' : 'A developer, admin or owner of the account can add one.'}
          </Text>
        </Paper>
      )}
      {webhooks.isSuccess && webhooks.data.length > 0 && <WebhooksTable webhooks={webhooks.data} />}
      <WebhookFormModal opened={adding} onClose={() => setAdding(false)} onCreated={(webhook) => setCreated({ id: webhook.id, secret: webhook.secret ?? '' })} />
      <SigningSecretModal
        secret={created?.secret ?? null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) void navigate(`/webhooks/${id}`);
        }}
      />
    </>
  );
}
