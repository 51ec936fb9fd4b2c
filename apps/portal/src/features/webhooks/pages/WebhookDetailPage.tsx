import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMe } from '../../auth';
import { isApiError } from '../../../shared/api-client';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ConfirmModal } from '../../../shared/ui/ConfirmModal';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { errorMessage } from '../../../shared/ui/errors';
import type { WebhookAttempt, WebhookLog } from '../api';
import { DeliveryLogsTable } from '../components/DeliveryLogsTable';
import { EndpointHealthPanel } from '../components/EndpointHealthPanel';
import { ReplayModal } from '../components/ReplayModal';
import { SigningSecretModal } from '../components/SigningSecretModal';
import { WebhookFormModal } from '../components/WebhookFormModal';
import { canManageWebhooks } from '../events';
import { defaultReplaySince } from '../health';
import { useDeleteWebhook, useEnableWebhook, useRetryDelivery, useSendTestEvent, useUpdateWebhook, useWebhook, useWebhookLogs } from '../hooks/useWebhooks';

function outcome(attempt: WebhookAttempt): string {
  const answer = attempt.status_code === null ? 'no answer' : `HTTP ${attempt.status_code}`;
  return `${answer} in ${attempt.latency_ms} ms`;
}

/**
 * One endpoint: details and health; send a test event, edit, rotate the secret, delete; enable it
 * when the gateway disabled it, replay its failed deliveries; its delivery logs with retry.
 */
export function WebhookDetailPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const navigate = useNavigate();
  const webhook = useWebhook(id);
  const logs = useWebhookLogs(id, webhook.isSuccess);
  const test = useSendTestEvent();
  const retry = useRetryDelivery();
  const rotate = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const enable = useEnableWebhook();
  const [editing, setEditing] = useState(false);
  /** The replay dialog's starting instant while it is open. */
  const [replaySince, setReplaySince] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const canManage = canManageWebhooks(me.data?.account?.role);
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];

  if (webhook.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the endpoint" />
      </Center>
    );
  }
  if (webhook.isError) {
    const missing = isApiError(webhook.error) && webhook.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Endpoint not found' : 'Webhook endpoint'} />
        {missing ? (
          <Paper withBorder p="xl" ta="center">
            <Text>There is no such endpoint in this account and mode.</Text>
            <Anchor component={Link} to="/webhooks">
              Back to webhooks
            </Anchor>
          </Paper>
        ) : (
          <ErrorAlert title="The endpoint could not be loaded" error={webhook.error} onRetry={() => void webhook.refetch()} />
        )}
      </>
    );
  }
  const endpoint = webhook.data;

  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: (attempt) =>
        notifications.show({
          color: attempt.success ? 'green' : 'red',
          title: attempt.success ? 'Test event delivered' : 'Test event failed',
          message: `${outcome(attempt)}. It is in the delivery log.`,
        }),
      onError: (error) => notifications.show({ color: 'red', title: 'The test event was not sent', message: errorMessage(error) }),
    });
  const retryLog = (log: WebhookLog) =>
    retry.mutate(log.log_id, {
      onSuccess: (attempt) =>
        notifications.show({ color: attempt.success ? 'green' : 'red', title: attempt.success ? 'Retry delivered' : 'Retry failed', message: `${outcome(attempt)}.` }),
      onError: (error) => notifications.show({ color: 'red', title: 'The retry was not sent', message: errorMessage(error) }),
    });
  const rotateSecret = () =>
    rotate.mutate(
      { id: endpoint.id, changes: { rotate_secret: true } },
      {
        onSuccess: (rotated) => {
          setConfirmRotate(false);
          rotate.reset();
          setSecret(rotated.secret ?? null);
        },
      },
    );
  // Enabling starts a fresh run: the failing run's start is kept to offer the replay from it.
  const enableEndpoint = () => {
    const since = defaultReplaySince(endpoint.health, new Date());
    enable.mutate(endpoint.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Endpoint enabled', message: 'New events are sent to it again. Replay what failed meanwhile.' });
        setReplaySince(since);
      },
      onError: (error) => notifications.show({ color: 'red', title: 'The endpoint was not enabled', message: errorMessage(error) }),
    });
  };
  const deleteEndpoint = () =>
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'Endpoint deleted.' });
        void navigate('/webhooks');
      },
    });

  return (
    <>
      <PageHeader
        title="Webhook endpoint"
        description={<span style={{ wordBreak: 'break-all' }}>{endpoint.url}</span>}
        actions={
          canManage && (
            <Group gap="xs">
              <Button onClick={sendTest} loading={test.isPending}>
                Send test event
              </Button>
              <Button variant="default" onClick={() => setReplaySince(defaultReplaySince(endpoint.health, new Date()))} disabled={endpoint.status === 'disabled'}>
                Replay failed since…
              </Button>
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button variant="default" onClick={() => setConfirmRotate(true)}>
                Rotate secret
              </Button>
              <Button variant="light" color="red" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            </Group>
          )
        }
      />
      {endpoint.status === 'disabled' && (
        <Alert color="red" mb="lg" title="Deliveries to this endpoint are stopped" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              The gateway disabled it on {formatTime(endpoint.disabled_at)} after {endpoint.health.consecutive_failed_deliveries} deliveries in a row failed. New events are not sent to it. Fix
              the receiver (a test event still goes out), then enable it and replay what failed.
            </Text>
            {canManage && (
              <Button color="red" onClick={enableEndpoint} loading={enable.isPending}>
                Enable endpoint
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      <Paper withBorder p="md" mb="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Detail label="Endpoint id" value={<Text ff="monospace" size="sm">{endpoint.id}</Text>} />
          <Detail label="Payload version" value={endpoint.webhook_version} />
          <Detail label="Mode" value={endpoint.mode} />
          <Detail label="Created" value={formatTime(endpoint.created_at)} />
          <Detail label="Updated" value={formatTime(endpoint.updated_at)} />
          {endpoint.previous_secret_expires_at && <Detail label="Previous secret signs until" value={formatTime(endpoint.previous_secret_expires_at)} />}
        </SimpleGrid>
        <Text size="sm" c="dimmed" mt="sm">
          Events
        </Text>
        <Group gap={4} aria-label="Subscribed events">
          {endpoint.events.map((event) => (
            <Badge key={event} variant="light" tt="none">
              {event}
            </Badge>
          ))}
        </Group>
      </Paper>

      <EndpointHealthPanel webhook={endpoint} />

      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          Delivery logs
        </Title>
        <Button variant="default" size="xs" onClick={() => void logs.refetch()} loading={logs.isRefetching && !logs.isFetchingNextPage}>
          Refresh
        </Button>
      </Group>
      {logs.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading delivery logs" />
        </Center>
      )}
      {logs.isError && <ErrorAlert title="The delivery logs could not be loaded" error={logs.error} onRetry={() => void logs.refetch()} />}
      {logs.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>No deliveries yet</Text>
          <Text size="sm" c="dimmed">
            Every attempt to this endpoint appears here{canManage ? ': send a test event to see one.' : '.'}
          </Text>
        </Paper>
      )}
      {logs.isSuccess && rows.length > 0 && (
        <Stack>
          <DeliveryLogsTable logs={rows} canManage={canManage} retrying={retry.isPending ? retry.variables : undefined} onRetry={retryLog} />
          {logs.hasNextPage && (
            <Center>
              <Button variant="default" onClick={() => void logs.fetchNextPage()} loading={logs.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </Stack>
      )}

      <WebhookFormModal opened={editing} webhook={endpoint} onClose={() => setEditing(false)} />
      <ReplayModal opened={replaySince !== null} webhook={endpoint} initialSince={replaySince ?? new Date().toISOString()} onClose={() => setReplaySince(null)} />
      <ConfirmModal
        opened={confirmRotate}
        title="Rotate the signing secret"
        confirmLabel="Rotate secret"
        error={rotate.error}
        errorTitle="The secret was not rotated"
        pending={rotate.isPending}
        onConfirm={rotateSecret}
        onClose={() => {
          rotate.reset();
          setConfirmRotate(false);
        }}
      >
        <Text size="sm">A new secret is shown once. The current one keeps signing too (a second v1= in the signature) for a grace period, so your receiver can switch without missing a delivery.</Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirmDelete}
        title="Delete endpoint"
        confirmLabel="Delete endpoint"
        error={remove.error}
        errorTitle="The endpoint was not deleted"
        pending={remove.isPending}
        onConfirm={deleteEndpoint}
        onClose={() => {
          remove.reset();
          setConfirmDelete(false);
        }}
      >
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          Nothing more is sent to <code>{endpoint.url}</code>, and its pending deliveries stop. This cannot be undone.
        </Text>
      </ConfirmModal>
      <SigningSecretModal secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}

function Detail({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </div>
  );
}
