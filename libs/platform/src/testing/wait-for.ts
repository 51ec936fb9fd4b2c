/**
 * Polls `condition` until it holds, so a test waits for what it needs instead of sleeping a fixed
 * time; fails naming `what` after `timeoutMs`. By default every 200 ms for up to 30 s (a process
 * or a scheduler's round); a test waiting on something in its own process polls faster.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  options: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
}
