import { ApiError, type ApiClient } from '../../shared/api-client';

/** `GET /health` answers this while the API process is up. */
export interface HealthStatus {
  status: 'ok';
}

/** `GET /ready` answers this once the database answers and every migration is applied. */
export interface ReadinessStatus {
  status: 'ready';
}

export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';

/** Liveness: resolves when the API is up; rejects with an {@link ApiError} otherwise. */
export async function getHealth(client: ApiClient, signal?: AbortSignal): Promise<HealthStatus> {
  const data = await client.get<unknown>(HEALTH_PATH, { signal });
  return expectStatus(data, 'ok', HEALTH_PATH);
}

/** Readiness: resolves when the API can serve traffic; rejects with an {@link ApiError} otherwise. */
export async function getReadiness(client: ApiClient, signal?: AbortSignal): Promise<ReadinessStatus> {
  const data = await client.get<unknown>(READY_PATH, { signal });
  return expectStatus(data, 'ready', READY_PATH);
}

function expectStatus<S extends string>(data: unknown, expected: S, path: string): { status: S } {
  if (typeof data === 'object' && data !== null && (data as { status?: unknown }).status === expected) {
    return { status: expected };
  }
  throw new ApiError({
    code: 'invalid_response',
    status: 200,
    message: `GET ${path} answered without status "${expected}".`,
  });
}
