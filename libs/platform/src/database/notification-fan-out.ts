import { PgListener } from './pg-listener';

/** A one-shot wake-up armed for one key: resolves at the first notification for it after arming. */
export interface Wake {
  readonly notified: Promise<void>;
  /** Stops waiting (always call it, notified or not, so the process holds no stale waiter). */
  dispose(): void;
}

export interface NotificationFanOutOptions {
  connectionString: string;
  /** The channel to LISTEN on: a plain identifier (it is written into the LISTEN statement). */
  channel: string;
  /** Shown in pg_stat_activity, so an operator can tell the listening session apart. */
  applicationName?: string;
  /** Told when the listening connection is lost or cannot be opened (it is retried with backoff). */
  onProblem?: (message: string) => void;
}

/**
 * One LISTEN connection per process for a channel, shared by every waiter in the process: a
 * notification's payload is the key, and it wakes exactly the waiters armed for that key. So a
 * thousand long-polls hold one database session between them, not one each.
 *
 * The connection (a PgListener: opened within a deadline, checked by a heartbeat, reopened with
 * backoff) opens on the first `arm`, so a process that never waits never connects. While it is
 * down nobody is woken: waiters must also re-check on a timer of their own (see longPoll), and
 * `isListening` says which to expect.
 */
export class NotificationFanOut {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly listener: PgListener;

  constructor(options: NotificationFanOutOptions) {
    this.listener = new PgListener({
      connectionString: options.connectionString,
      channel: options.channel,
      applicationName: options.applicationName,
      onNotification: (key) => this.notify(key),
      onLost: (message) => options.onProblem?.(`${message}; waiters fall back to re-checking`),
    });
  }

  get isListening(): boolean {
    return this.listener.isListening;
  }

  /** Arms a wake for `key`; arm BEFORE reading what the notification announces, or one may be missed. */
  arm(key: string): Wake {
    this.listener.start();
    let wake!: () => void;
    const notified = new Promise<void>((resolve) => (wake = resolve));
    let set = this.waiters.get(key);
    if (!set) this.waiters.set(key, (set = new Set()));
    set.add(wake);
    const own = set;
    return {
      notified,
      dispose: () => {
        own.delete(wake);
        if (own.size === 0 && this.waiters.get(key) === own) this.waiters.delete(key);
      },
    };
  }

  /** Wakes every waiter (they re-read and answer) and closes the connection for good. */
  async close(): Promise<void> {
    for (const set of this.waiters.values()) for (const wake of set) wake();
    this.waiters.clear();
    await this.listener.close();
  }

  private notify(key: string): void {
    const set = this.waiters.get(key);
    if (!set) return;
    this.waiters.delete(key);
    for (const wake of set) wake();
  }
}
