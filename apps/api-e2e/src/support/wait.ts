/**
 * Polls `condition` until it holds (every 200 ms), so a test waits for what it needs instead of
 * sleeping a fixed time; fails naming `what` after `timeoutMs`.
 */
export async function waitFor(condition: () => Promise<boolean>, options: { timeoutMs?: number; what: string }): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
