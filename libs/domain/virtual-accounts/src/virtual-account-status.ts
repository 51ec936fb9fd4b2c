import type { VirtualAccountStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a virtual account, by name (see StatusMoves). An account is created
 * `active`; deactivating it frees its customer for a new one. There is no way back: a customer who
 * needs an account again gets a new one (`POST /virtual-accounts`).
 */
export const VIRTUAL_ACCOUNT_TRANSITIONS = {
  deactivate: { from: ['active'], to: 'inactive' },
} as const satisfies StatusMoves<VirtualAccountStatus>;

export type VirtualAccountTransition = keyof typeof VIRTUAL_ACCOUNT_TRANSITIONS;
