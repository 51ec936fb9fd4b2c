import { DomainError } from '../errors';

/** One named status move: the statuses it may start from, and the one it ends in. */
export interface StatusMove<S extends string = string> {
  readonly from: readonly S[];
  readonly to: S;
}

/**
 * A resource's allowed status moves, by name (`succeed`, `cancel`, `expire`, …), declared once
 * beside the resource: `export const REFUND_TRANSITIONS = {…} as const satisfies StatusMoves<RefundStatus>`.
 *
 * Every status change goes through its table. A conditional UPDATE takes its
 * `WHERE status = ANY (…)` list from `fromStatesOf` and the new status from `targetOf`, so a move
 * racing another one is decided by the database (the loser changes no row); code that decides on a
 * row it has loaded (and locked) asks `canMove` or `assertTransition`.
 *
 * Moves are named rather than read off a status → statuses graph because two moves may end in
 * the same status from different ones under different rules (an intent is `canceled` by the
 * merchant from `requires_capture`, and by the upkeep scan from `holding`): each SQL condition
 * must allow exactly its own starting statuses.
 */
export type StatusMoves<S extends string = string> = Readonly<Record<string, StatusMove<S>>>;

/** Every status a table names, as a start or an end. */
export type StatusOf<T extends StatusMoves> = T[keyof T]['from'][number] | T[keyof T]['to'];

/** The statuses `move` may start from: the list for a conditional UPDATE's `status = ANY (…)`. */
export function fromStatesOf<T extends StatusMoves, M extends keyof T & string>(moves: T, move: M): T[M]['from'] {
  return moves[move].from;
}

/** The status `move` ends in. */
export function targetOf<T extends StatusMoves, M extends keyof T & string>(moves: T, move: M): T[M]['to'] {
  return moves[move].to;
}

/** Whether a resource in `status` may make `move`. */
export function canMove<T extends StatusMoves>(moves: T, move: keyof T & string, status: StatusOf<T>): boolean {
  return (moves[move].from as readonly string[]).includes(status);
}

/**
 * Refuses a move the table does not allow from `status`.
 * @throws invalid_state with `refusal` as its message (what the client reads: say why, in their terms)
 */
export function assertTransition<T extends StatusMoves>(moves: T, move: keyof T & string, status: StatusOf<T>, refusal: string): void {
  if (!canMove(moves, move, status)) throw new DomainError('invalid_state', refusal);
}

/**
 * Statuses as SQL literals (`'pending', 'processing'`), for a statement whose text is fixed when its
 * module loads: the planner then sees constants, so a partial index on those statuses still applies.
 */
export function statusLiterals(statuses: readonly string[]): string {
  return statuses
    .map((status) => {
      if (!/^[a-z_]+$/.test(status)) throw new Error(`not a status name: ${status}`);
      return `'${status}'`;
    })
    .join(', ');
}
