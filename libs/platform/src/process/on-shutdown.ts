import { stopWhenSupervisorDies } from './supervision';

/** Something a process closes on the way out (the HTTP server, the database pool, …). */
export interface ShutdownStep {
  name: string;
  close(): Promise<unknown> | unknown;
}

export interface ShutdownLogger {
  log(message: string): void;
  error(message: string): void;
}

export interface ShutdownOptions {
  logger: ShutdownLogger;
  /** After this long the process exits with code 1 however far the steps got. Default 10 s. */
  deadlineMs?: number;
  /** Where SUPERVISOR_PID is read from (see stopWhenSupervisorDies). Default: process.env. */
  env?: Record<string, string | undefined>;
}

export const DEFAULT_SHUTDOWN_DEADLINE_MS = 10_000;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * How a server process stops: on SIGINT, SIGTERM or its supervisor's death (`npm start`), it runs
 * `steps` once, in order, each even if one before it failed, then exits — 0 when every step closed,
 * 1 when one failed or the deadline passed first (a stuck close never keeps a port or the process
 * around). Signals that arrive while it stops are noted and ignored: the deadline bounds the wait.
 * Returns the same shutdown, for a process that decides to stop by itself.
 */
export function onShutdown(steps: ShutdownStep[], options: ShutdownOptions): (cause: string) => Promise<void> {
  const { logger, deadlineMs = DEFAULT_SHUTDOWN_DEADLINE_MS, env = process.env } = options;
  let stopping: Promise<void> | undefined;

  const shutdown = (cause: string): Promise<void> => {
    if (stopping) {
      logger.log(`${cause} while shutting down: still closing`);
      return stopping;
    }
    logger.log(`${cause}, shutting down`);
    stopping = closeInOrder(steps, logger, deadlineMs).then((code) => {
      if (code === 0) logger.log('stopped');
      process.exit(code);
    });
    return stopping;
  };

  for (const signal of SIGNALS) process.on(signal, () => void shutdown(`${signal} received`));
  stopWhenSupervisorDies(env, () => void shutdown('supervisor gone'));
  return shutdown;
}

/** 0 when every step closed in time, 1 otherwise. */
async function closeInOrder(steps: ShutdownStep[], logger: ShutdownLogger, deadlineMs: number): Promise<number> {
  let current = steps[0]?.name;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      logger.error(`shutdown did not finish within ${deadlineMs / 1000} s (still closing ${current}); exiting`);
      resolve(1);
    }, deadlineMs);
  });
  const closing = (async () => {
    let code = 0;
    for (const step of steps) {
      current = step.name;
      try {
        await step.close();
      } catch (error) {
        logger.error(`${step.name} failed to close: ${error instanceof Error ? error.message : String(error)}`);
        code = 1;
      }
    }
    return code;
  })();
  try {
    return await Promise.race([closing, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
