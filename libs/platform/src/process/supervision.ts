/**
 * Processes started by `npm start` get SUPERVISOR_PID. If the supervisor dies without stopping
 * them (e.g. `kill -9`), they shut themselves down instead of lingering on their ports.
 */
export function stopWhenSupervisorDies(env: Record<string, string | undefined>, shutdown: () => void): void {
  const supervisor = Number(env.SUPERVISOR_PID);
  if (!Number.isInteger(supervisor) || supervisor <= 0) return;
  const timer = setInterval(() => {
    try {
      process.kill(supervisor, 0);
    } catch {
      clearInterval(timer);
      shutdown();
    }
  }, 1_000);
  timer.unref();
}
