import { Client } from 'pg';

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

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * One LISTEN connection per process for a channel, shared by every waiter in the process: a
 * notification's payload is the key, and it wakes exactly the waiters armed for that key. So a
 * thousand long-polls hold one database session between them, not one each.
 *
 * The connection opens on the first `arm` (a process that never waits never connects) and is
 * reopened after a loss, with backoff, on a later `arm`. While it is down nobody is woken:
 * waiters must also re-check on a timer of their own (see longPoll), and `isListening` says which
 * to expect.
 */
export class NotificationFanOut {
  private readonly waiters = new Map<string, Set<() => void>>();
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private listening = false;
  private closed = false;
  private failures = 0;
  private nextAttemptAt = 0;

  constructor(private readonly options: NotificationFanOutOptions) {
    if (!CHANNEL_NAME.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Arms a wake for `key`; arm BEFORE reading what the notification announces, or one may be missed. */
  arm(key: string): Wake {
    this.ensureConnected();
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
    this.closed = true;
    for (const set of this.waiters.values()) for (const wake of set) wake();
    this.waiters.clear();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }

  private notify(key: string): void {
    const set = this.waiters.get(key);
    if (!set) return;
    this.waiters.delete(key);
    for (const wake of set) wake();
  }

  private ensureConnected(): void {
    if (this.closed || this.client || this.connecting || Date.now() < this.nextAttemptAt) return;
    this.connecting = this.connect().finally(() => (this.connecting = undefined));
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString, application_name: this.options.applicationName });
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      this.backOff(`listening connection lost (${reason})`);
    };
    client.on('notification', (message) => this.notify(message.payload ?? ''));
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      this.backOff(`cannot listen (${(error as Error).message})`);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.listening = true;
    this.failures = 0;
    this.nextAttemptAt = 0;
  }

  private backOff(problem: string): void {
    if (this.closed) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
    this.failures += 1;
    this.nextAttemptAt = Date.now() + delay;
    this.options.onProblem?.(`${this.options.channel}: ${problem}; waiters fall back to re-checking, next attempt in ${delay / 1000} s`);
  }
}
