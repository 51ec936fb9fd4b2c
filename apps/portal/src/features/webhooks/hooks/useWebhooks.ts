import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhook,
  listWebhookLogs,
  listWebhooks,
  replayWebhook,
  retryDelivery,
  sendTestEvent,
  updateWebhook,
  type WebhookChanges,
} from '../api';

export const WEBHOOKS_QUERY_KEY = ['webhooks'] as const;

/** A 404 (missing, or another account's) is an answer, not a glitch: not retried. */
const noRetryOnNotFound = (failures: number, error: unknown) => failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404);

export function useWebhooks() {
  return useQuery({ queryKey: [...WEBHOOKS_QUERY_KEY, 'list'], queryFn: ({ signal }) => listWebhooks(signal) });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: [...WEBHOOKS_QUERY_KEY, 'detail', id], queryFn: ({ signal }) => getWebhook(id, signal), retry: noRetryOnNotFound });
}

/** Every attempt to the endpoint, newest first, a page at a time. */
export function useWebhookLogs(id: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...WEBHOOKS_QUERY_KEY, 'logs', id],
    queryFn: ({ pageParam, signal }) => listWebhookLogs(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
    enabled,
  });
}

function useInvalidateWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY });
}

export function useCreateWebhook() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: createWebhook, onSuccess });
}

export function useUpdateWebhook() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: ({ id, changes }: { id: string; changes: WebhookChanges }) => updateWebhook(id, changes), onSuccess });
}

export function useDeleteWebhook() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: deleteWebhook, onSuccess });
}

/** A test event and a retry each add an attempt to the log. */
export function useSendTestEvent() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: sendTestEvent, onSuccess });
}

export function useRetryDelivery() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: retryDelivery, onSuccess });
}

export function useEnableWebhook() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: enableWebhook, onSuccess });
}

/** Replayed deliveries are sent by the scheduler within seconds: the logs and health follow on refresh. */
export function useReplayWebhook() {
  const onSuccess = useInvalidateWebhooks();
  return useMutation({ mutationFn: ({ id, since }: { id: string; since: string }) => replayWebhook(id, since), onSuccess });
}
