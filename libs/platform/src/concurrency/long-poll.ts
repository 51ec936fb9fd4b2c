import type { Wake } from '../database/notification-fan-out';

export interface LongPollOptions<T> {
  /** One read of what the caller waits for (it may advance its own position between reads). */
  read(): Promise<T>;
  /** Whether a read's result is worth answering with at once (something arrived). */
  hasNews(result: T): boolean;
  /** The longest to wait for news; 0 = read once. */
  waitMs: number;
  /** Re-check at least this often, notification or not (a lost notification, a listener down). */
  recheckMs: number;
  /** A notification that news may have arrived, armed before each read; none = re-checks alone. */
  arm?: () => Wake;
  /** Any of these ends the wait early (the client went away, the process is stopping): the last read is answered. */
  signals?: ReadonlyArray<AbortSignal | undefined>;
  /**
   * Start with quick re-checks, as after a notification: for a waiter whose notifications have
   * only just been switched on, so news written just before then is not left to `recheckMs`.
   */
  startQuick?: boolean;
  /** Told when a pause between reads begins (true) and ends (false): how many are waiting right now. */
  onPause?: (pausing: boolean) => void;
}

/** After a notification whose news a read could not see yet, the first quick re-check, doubling… */
const FIRST_QUICK_RECHECK_MS = 20;
/** …up to this, and at this pace until the news is read (a notification says it is coming). */
const MAX_QUICK_RECHECK_MS = 1_000;

/**
 * Reads until there is news, the wait is over or the signal fires, and returns the last read.
 * Woken by `arm`'s notification, it reads again at once. A notification can precede what it
 * announces becoming readable (a feed holds a committed row back until every older transaction
 * has finished); then the next reads follow quickly (20 ms, doubling up to 1 s, then every
 * second) rather than after a whole `recheckMs`.
 */
export async function longPoll<T>(options: LongPollOptions<T>): Promise<T> {
  const deadline = performance.now() + options.waitMs;
  // Listened to per pause and released after it: a process-wide signal collects no listeners.
  const signals = (options.signals ?? []).filter((signal): signal is AbortSignal => signal !== undefined);
  const aborted = () => signals.some((signal) => signal.aborted);
  let quickRecheckMs = options.startQuick ? FIRST_QUICK_RECHECK_MS : undefined;
  // Re-checks after a notification go on at MAX_QUICK_RECHECK_MS; those of startQuick end there.
  let notified = false;
  for (;;) {
    const wake = options.arm?.();
    try {
      const result = await options.read();
      const remaining = deadline - performance.now();
      if (options.hasNews(result) || remaining <= 0 || aborted()) return result;
      const pause = Math.min(remaining, options.recheckMs, quickRecheckMs ?? Infinity);
      options.onPause?.(true);
      const outcome = await firstOf(wake?.notified, pause, signals).finally(() => options.onPause?.(false));
      if (outcome === 'aborted') return result;
      if (outcome === 'notified') {
        notified = true;
        quickRecheckMs = FIRST_QUICK_RECHECK_MS;
      } else if (quickRecheckMs !== undefined) {
        quickRecheckMs = Math.min(quickRecheckMs * 2, MAX_QUICK_RECHECK_MS);
        if (!notified && quickRecheckMs >= MAX_QUICK_RECHECK_MS) quickRecheckMs = undefined;
      }
    } finally {
      wake?.dispose();
    }
  }
}

/** Which comes first: the notification, `ms` elapsing, or a signal. Leaves no timer or listener behind. */
function firstOf(notified: Promise<void> | undefined, ms: number, signals: AbortSignal[]): Promise<'notified' | 'elapsed' | 'aborted'> {
  return new Promise((resolve) => {
    const finish = (outcome: 'notified' | 'elapsed' | 'aborted') => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish('aborted');
    const timer = setTimeout(() => finish('elapsed'), ms);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
    void notified?.then(() => finish('notified'));
  });
}
