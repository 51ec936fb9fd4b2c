/** Thrown at once, without running the task, when every slot is busy and the wait queue is full. */
export class ConcurrencyQueueFullError extends Error {
  constructor() {
    super('every slot is busy and the wait queue is full');
    this.name = 'ConcurrencyQueueFullError';
  }
}

/**
 * Runs at most `maxRunning` tasks at once; up to `maxWaiting` more wait their turn in arrival
 * order, and any beyond that are refused at once. A bounded queue keeps the wait bounded too:
 * under a flood a caller is answered quickly (refused) instead of joining a line of seconds.
 */
export class BoundedConcurrency {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(maxRunning) || maxRunning < 1) throw new RangeError('maxRunning must be a positive integer');
    if (!Number.isInteger(maxWaiting) || maxWaiting < 0) throw new RangeError('maxWaiting must be a non-negative integer');
  }

  /** @throws ConcurrencyQueueFullError when the task can neither run nor wait */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Whether a task started now would run or wait rather than be refused. */
  get hasRoom(): boolean {
    return this.running < this.maxRunning || this.waiting.length < this.maxWaiting;
  }

  /** Tasks running now and tasks waiting (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxRunning) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new ConcurrencyQueueFullError());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    // The slot passes straight to the next waiter, so a newcomer can never overtake the queue.
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
