import { type AppProcess, startAppProcess } from './api-process';

/** The real scheduler app (`apps/scheduler/src/main.ts`) as a child process, for crash tests. */
export type SchedulerProcess = AppProcess;

export function startScheduler(env: Record<string, string>): Promise<SchedulerProcess> {
  return startAppProcess({ app: 'scheduler', portVariable: 'SCHEDULER_PORT' }, env);
}
