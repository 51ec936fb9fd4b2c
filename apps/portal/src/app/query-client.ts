import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../shared/api-client';

/** Retries only what may pass on its own (network, 5xx), never a refusal (4xx). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}
