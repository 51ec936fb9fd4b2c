/**
 * Gathers concurrent calls into batches that run one at a time (a group commit): the calls made
 * while a batch runs wait and form the next one. Under load each run serves many calls; when
 * idle, a call runs as soon as the current turn of the event loop ends (which gathers the calls
 * made in that turn), so it waits for no timer.
 */
export class CallBatcher<I, O> {
  private waiting: Array<{ item: I; resolve: (result: O) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  /** `run` answers one result per item, in the items' order; if it throws, every call of the batch throws that. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch: number,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running && this.waiting.length === 1) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((call) => call.item));
        batch.forEach((call, i) => call.resolve(results[i]));
      } catch (error) {
        batch.forEach((call) => call.reject(error));
      }
    }
    this.running = false;
  }
}
