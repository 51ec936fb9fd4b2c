import { DomainError } from '@gateway/platform';

/**
 * The posting's (source type, source id, kind) was already recorded: double posting is refused.
 * Nothing was written by the refused call; the caller decides whether that means "already done".
 * Travels as 409 `conflict` if it ever reaches HTTP.
 */
export class LedgerDuplicatePostingError extends DomainError {
  constructor(
    readonly sourceType: string,
    readonly sourceId: string,
    readonly kind: string,
  ) {
    super('conflict', 'This operation has already been recorded in the ledger.');
    this.name = 'LedgerDuplicatePostingError';
  }
}

/** A posting whose lines do not sum to zero, or that is malformed: a programming error, never a user's. */
export class LedgerUnbalancedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerUnbalancedError';
  }
}
