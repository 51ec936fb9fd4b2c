/**
 * Failpoints: named places where a crash test makes the process die as `kill -9` would, to prove
 * the gateway recovers from a crash at exactly that point (the reliability tier's crash-points
 * row). They are compiled in and do nothing unless GATEWAY_FAILPOINTS names them, and they never
 * arm with NODE_ENV=production.
 *
 * GATEWAY_FAILPOINTS is a comma-separated list of `name`, `name@tag` or either with `=kill` (the
 * only action, and the default): `transaction.before-commit@payments.record-success` fires only
 * where the failpoint is reached with that tag (here, that transaction's name); without a tag, it
 * fires wherever the name is reached. It is read once, when the process loads this module: like
 * SUPERVISOR_PID (on-shutdown.ts), it is process plumbing for the test harness, not a setting of the
 * gateway, so it is not part of the validated config.
 */
export const FAILPOINTS_VARIABLE = 'GATEWAY_FAILPOINTS';

export interface ArmedFailpoint {
  name: string;
  /** Fires only where the failpoint is reached with this tag; undefined: everywhere. */
  tag?: string;
  action: 'kill';
}

const ENTRY = /^([a-z0-9][a-z0-9.-]*)(?:@([^=\s]+))?(?:=(kill))?$/;

/** @throws Error naming the entry that is not `name[@tag][=kill]` */
export function parseFailpoints(text: string): ArmedFailpoint[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = ENTRY.exec(entry);
      if (!match) throw new Error(`${FAILPOINTS_VARIABLE}: "${entry}" is not name[@tag][=kill]`);
      return { name: match[1], ...(match[2] ? { tag: match[2] } : {}), action: 'kill' as const };
    });
}

/**
 * What `env` arms: nothing when the variable is unset or NODE_ENV is production (then `warn` says
 * why, so an operator who set it by mistake sees it ignored).
 */
export function armedFailpoints(env: Record<string, string | undefined>, warn: (message: string) => void): ArmedFailpoint[] {
  const text = env[FAILPOINTS_VARIABLE];
  if (!text) return [];
  if (env.NODE_ENV === 'production') {
    warn(`${FAILPOINTS_VARIABLE} is ignored: failpoints crash the process on purpose and are for tests, never with NODE_ENV=production`);
    return [];
  }
  const armed = parseFailpoints(text);
  warn(`${FAILPOINTS_VARIABLE} armed: ${armed.map((f) => (f.tag ? `${f.name}@${f.tag}` : f.name)).join(', ')} (this process will kill itself there)`);
  return armed;
}

/** Whether an armed list fires at `name` reached with `tag`. */
export function fires(armed: readonly ArmedFailpoint[], name: string, tag?: string): boolean {
  return armed.some((f) => f.name === name && (f.tag === undefined || f.tag === tag));
}

const armed: readonly ArmedFailpoint[] = armedFailpoints(process.env, (message) => process.stderr.write(`${message}\n`));

/**
 * A crash point: when GATEWAY_FAILPOINTS arms `name` (for `tag`), the process kills itself with
 * SIGKILL here — no shutdown hook, no reply, no rollback but the database's own. Otherwise nothing.
 */
export function failpoint(name: string, tag?: string): void {
  if (armed.length && fires(armed, name, tag)) process.kill(process.pid, 'SIGKILL');
}
