import type { Mode } from '@gateway/contracts';

/**
 * Who a request acts for. Every repository method that touches tenant data takes one and
 * filters by both fields, so another developer's (or the other mode's) rows are invisible.
 */
export interface DeveloperContext {
  readonly developerId: string;
  readonly mode: Mode;
}
