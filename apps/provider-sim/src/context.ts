import type { CallbackSender } from './callbacks';
import type { FeeSchedule } from './fees';
import type { IdGenerator } from './ids';
import type { Account, AccountRegistry } from './state/accounts';
import type { KnobState } from './state/knobs';
import type { TaskTracker } from './tasks';

/** Everything services and routes share within one simulator instance. */
export interface SimulatorContext {
  readonly accounts: AccountRegistry;
  readonly ids: IdGenerator;
  readonly fees: FeeSchedule;
  readonly knobs: KnobState;
  readonly tasks: TaskTracker;
  readonly callbacks: CallbackSender;
  /** Dispute evidence files announced by `GET /dispute/:id/upload_url`, by file name (uploads carry no key). */
  readonly uploads: Map<string, { account: Account; disputeId: number }>;
  /** Aborted when the simulator closes; ends hung requests and sleeps. */
  readonly shutdown: AbortSignal;
  /** Base URL for links handed to customers (authorization_url). */
  publicUrl(): string;
  now(): Date;
}
