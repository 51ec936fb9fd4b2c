import { DomainError } from '../errors';
import { assertTransition, canMove, fromStatesOf, type StatusMoves, statusLiterals, targetOf } from './status-moves';

type DoorStatus = 'closed' | 'open' | 'locked' | 'broken';

const DOOR_TRANSITIONS = {
  open: { from: ['closed'], to: 'open' },
  close: { from: ['open'], to: 'closed' },
  lock: { from: ['closed'], to: 'locked' },
  force: { from: ['closed', 'locked'], to: 'broken' },
} as const satisfies StatusMoves<DoorStatus>;

describe('status moves', () => {
  it('gives a conditional UPDATE the statuses a move starts from and the one it ends in', () => {
    expect(fromStatesOf(DOOR_TRANSITIONS, 'force')).toEqual(['closed', 'locked']);
    expect(targetOf(DOOR_TRANSITIONS, 'force')).toBe('broken');
  });

  it('allows a move only from the statuses its table names', () => {
    expect(canMove(DOOR_TRANSITIONS, 'lock', 'closed')).toBe(true);
    expect(canMove(DOOR_TRANSITIONS, 'lock', 'open')).toBe(false);
    expect(canMove(DOOR_TRANSITIONS, 'open', 'broken')).toBe(false);
  });

  it('refuses a move the table does not allow with invalid_state and the given message', () => {
    expect(() => assertTransition(DOOR_TRANSITIONS, 'force', 'locked', 'never thrown')).not.toThrow();
    let refused: unknown;
    try {
      assertTransition(DOOR_TRANSITIONS, 'close', 'locked', 'The door is locked; unlock it first.');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'invalid_state', message: 'The door is locked; unlock it first.' });
  });

  it('writes statuses as SQL literals for a fixed statement, and refuses anything that is not a status name', () => {
    expect(statusLiterals(fromStatesOf(DOOR_TRANSITIONS, 'force'))).toBe("'closed', 'locked'");
    expect(() => statusLiterals(["open' OR true --"])).toThrow('not a status name');
  });
});
