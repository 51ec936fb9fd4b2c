import { TaskTracker } from './tasks';

describe('TaskTracker', () => {
  it('idle() waits for scheduled jobs and for the work they start', async () => {
    const tasks = new TaskTracker(() => undefined);
    const order: string[] = [];
    tasks.schedule(20, () => {
      order.push('job');
      const followUp = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
        order.push('follow-up');
      });
      tasks.track(followUp);
    });
    await tasks.idle();
    expect(order).toEqual(['job', 'follow-up']);
  });

  it('cancelled jobs never run and do not hold idle() up', async () => {
    const tasks = new TaskTracker(() => undefined);
    let ran = 0;
    const cancel = tasks.schedule(60_000, () => ran++);
    tasks.schedule(60_000, () => ran++);
    cancel();
    tasks.cancelScheduled();
    await tasks.idle();
    expect(ran).toBe(0);
  });

  it('reports failures instead of throwing them', async () => {
    const errors: unknown[] = [];
    const tasks = new TaskTracker((error) => errors.push(error));
    tasks.schedule(0, () => {
      throw new Error('job broke');
    });
    tasks.track(Promise.reject(new Error('promise broke')));
    await tasks.idle();
    expect(errors.map((error) => (error as Error).message).sort()).toEqual(['job broke', 'promise broke']);
  });
});
