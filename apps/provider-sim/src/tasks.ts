/**
 * Tracks the simulator's background work — scheduled completions and
 * callback deliveries — so tests can `await simulator.idle()` instead of
 * sleeping, and `close()` can cancel whatever is still waiting.
 */
export class TaskTracker {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Follows a promise until it settles. Rejections are reported, never rethrown. */
  track(work: Promise<unknown>): void {
    const settled: Promise<void> = work.then(
      () => undefined,
      (error: unknown) => this.onError(error),
    );
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }

  /**
   * Runs `job` after `delayMs` and returns a function that cancels it.
   * Work the job starts synchronously (e.g. a callback) is tracked before the
   * timer's own promise settles, so idle() never resolves in between.
   */
  schedule(delayMs: number, job: () => void): () => void {
    let release: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        job();
      } catch (error) {
        this.onError(error);
      } finally {
        release();
      }
    }, delayMs);
    this.timers.set(timer, release);
    this.track(finished);
    return () => {
      if (!this.timers.delete(timer)) return;
      clearTimeout(timer);
      release();
    };
  }

  /** Drops every job that has not started yet. */
  cancelScheduled(): void {
    for (const [timer, release] of this.timers) {
      clearTimeout(timer);
      release();
    }
    this.timers.clear();
  }

  /** Resolves once nothing is pending — including work started by work that just finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
    }
  }
}
