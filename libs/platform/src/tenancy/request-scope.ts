import { AsyncLocalStorage } from 'node:async_hooks';

/** What the gateway knows about the API request a piece of work is serving. */
interface RequestScope {
  /** The request's `X-Request-Id`, the key of its request log entry. */
  readonly requestId: string;
}

// One store for the process: the API enters it once per request (an onRequest hook), so
// everything the request causes — ledger postings, events — can record which request it was,
// without every service signature carrying the id. Work outside a request (scheduler scans,
// queue jobs) has no scope.
const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (and everything it starts asynchronously) as part of the request `requestId`. */
export function runInRequestScope<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The id of the API request this code is serving, or null outside a request. */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}
