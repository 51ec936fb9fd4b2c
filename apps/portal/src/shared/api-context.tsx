import { createContext, useContext, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from './api-client';

/** The client every feature uses: same origin, so the dev/preview proxy (or the API itself) answers. */
export const defaultApiClient: ApiClient = createApiClient();

const ApiClientContext = createContext<ApiClient>(defaultApiClient);

export function ApiClientProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

/** The API client of the surrounding {@link ApiClientProvider} (the same-origin client by default). */
export function useApiClient(): ApiClient {
  return useContext(ApiClientContext);
}
