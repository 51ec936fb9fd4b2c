import { useCallback, useEffect, useState } from 'react';
import { ApiError, isApiError } from '../../../shared/api-client';
import { useApiClient } from '../../../shared/api-context';
import { getHealth, getReadiness, type HealthStatus, type ReadinessStatus } from '../api';

export type ProbeState<T> =
  | { phase: 'checking' }
  | { phase: 'up'; data: T; latencyMs: number; checkedAt: Date }
  | { phase: 'down'; error: ApiError; latencyMs: number; checkedAt: Date };

export type OverallStatus = 'checking' | 'operational' | 'not-ready' | 'down';

export interface ServiceStatus {
  health: ProbeState<HealthStatus>;
  readiness: ProbeState<ReadinessStatus>;
  overall: OverallStatus;
  /** True while a check is in flight (the previous results stay visible meanwhile). */
  checking: boolean;
  /** Checks both probes again now. */
  refresh: () => void;
}

export interface UseServiceStatusOptions {
  /** Check again automatically every this many milliseconds; 0 turns it off. Default 30 s. */
  refreshIntervalMs?: number;
}

/** Polls the API's liveness (`/health`) and readiness (`/ready`) probes. */
export function useServiceStatus({ refreshIntervalMs = 30_000 }: UseServiceStatusOptions = {}): ServiceStatus {
  const client = useApiClient();
  const [round, setRound] = useState(0);
  const [checking, setChecking] = useState(true);
  const [health, setHealth] = useState<ProbeState<HealthStatus>>({ phase: 'checking' });
  const [readiness, setReadiness] = useState<ProbeState<ReadinessStatus>>({ phase: 'checking' });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const healthCheck = probe(() => getHealth(client, signal)).then((state) => {
      if (!signal.aborted) setHealth(state);
    });
    const readinessCheck = probe(() => getReadiness(client, signal)).then((state) => {
      if (!signal.aborted) setReadiness(state);
    });
    void Promise.all([healthCheck, readinessCheck]).then(() => {
      if (!signal.aborted) setChecking(false);
    });
    return () => controller.abort();
  }, [client, round]);

  const refresh = useCallback(() => {
    setChecking(true);
    setRound((n) => n + 1);
  }, []);

  useEffect(() => {
    if (refreshIntervalMs <= 0) return undefined;
    const timer = setInterval(refresh, refreshIntervalMs);
    return () => clearInterval(timer);
  }, [refresh, refreshIntervalMs]);

  return { health, readiness, overall: overallStatus(health, readiness), checking, refresh };
}

export function overallStatus(health: ProbeState<unknown>, readiness: ProbeState<unknown>): OverallStatus {
  if (health.phase === 'down') return 'down';
  if (health.phase === 'checking' || readiness.phase === 'checking') return 'checking';
  return readiness.phase === 'up' ? 'operational' : 'not-ready';
}

async function probe<T>(call: () => Promise<T>): Promise<ProbeState<T>> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const data = await call();
    return { phase: 'up', data, latencyMs: elapsed(), checkedAt: new Date() };
  } catch (error) {
    return { phase: 'down', error: toApiError(error), latencyMs: elapsed(), checkedAt: new Date() };
  }
}

function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  return new ApiError(
    { code: 'network_error', status: 0, message: error instanceof Error ? error.message : String(error) },
    { cause: error },
  );
}
