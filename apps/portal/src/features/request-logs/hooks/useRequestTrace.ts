import { useQuery } from '@tanstack/react-query';
import { getRequestTrace, type RequestTrace } from '../api';

/** How often a trace still settling is read again, and for how many reads at most (then the Refresh button is there). */
const SETTLING_REFRESH_MS = 2_000;
const SETTLING_MAX_READS = 60;

/**
 * A trace is still settling while its log entry is not written yet (the API writes request logs in
 * batches, about a second after the answer) or a delivery has attempts to come.
 */
export function isSettling(trace: RequestTrace): boolean {
  return trace.request === null || trace.events.some((event) => event.deliveries.some((delivery) => delivery.status === 'pending'));
}

/** One request's trace; read again every few seconds while it is settling (a purged log entry never comes: the reads stop). */
export function useRequestTrace(requestId: string) {
  return useQuery({
    queryKey: ['request-trace', requestId],
    queryFn: ({ signal }) => getRequestTrace(requestId, signal),
    refetchInterval: (query) =>
      query.state.data && isSettling(query.state.data) && query.state.dataUpdateCount < SETTLING_MAX_READS ? SETTLING_REFRESH_MS : false,
  });
}
