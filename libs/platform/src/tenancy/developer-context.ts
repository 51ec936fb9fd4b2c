import type { Mode } from '@gateway/contracts';

/**
 * Who a request acts for. Every repository method that touches tenant data takes one and
 * filters by both fields, so another developer's (or the other mode's) rows are invisible.
 */
export interface DeveloperContext {
  readonly developerId: string;
  readonly mode: Mode;
  /**
   * The id (`req_…`, its X-Request-Id) of the API request this work serves, when it serves one:
   * the ledger postings and events it causes record it, for the request's trace. Absent for work
   * of no request (scheduler scans, queue jobs).
   */
  readonly requestId?: string;
}

/**
 * The API request some work serves: a tenant's (its DeveloperContext), or one that acts for no
 * tenant of its own and reaches rows of any (a provider callback, a staff member's).
 */
export type ServingRequest = DeveloperContext | { readonly requestId: string; readonly developerId?: undefined };

/**
 * The tenant of a row, for work on it done within `within` (the request it serves) or within no
 * request: a payment a callback names, a subscription a request charges. The request's id carries
 * over to the rows of its own tenant, or of any tenant for a request that acts for none.
 */
export function tenantOf(row: { readonly developerId: string; readonly mode: Mode }, within?: ServingRequest): DeveloperContext {
  const carries = within !== undefined && (within.developerId === undefined || (within.developerId === row.developerId && within.mode === row.mode));
  return { developerId: row.developerId, mode: row.mode, requestId: carries ? within.requestId : undefined };
}
