import type { INestApplicationContext } from '@nestjs/common';
import { type AuditEvent, type AuditFilter, AuditService } from '@gateway/domain/audit';
import { DomainError } from '@gateway/platform';
import type { Command } from 'commander';

type Output = (human: string, json: unknown) => void;
type Run = (action: (app: INestApplicationContext, out: Output) => Promise<void>, json: boolean) => Promise<void>;

const MAX_LINES = 500;

/**
 * `audit tail [--developer] [--action] [-n 20] [--follow]`: the latest audit rows, oldest of them
 * first like tail(1); `--follow` then polls for rows recorded after the last one printed (by their
 * insertion order, so none is missed or printed twice) until interrupted.
 */
export function addAuditCommands(program: Command, run: Run, stop: AbortSignal = interrupted()): void {
  const audit = program.command('audit').description('The audit log');
  audit
    .command('tail')
    .description('Print the latest audit rows; --follow keeps printing new ones')
    .option('--developer <id>', 'only this account (developer id)')
    .option('--action <action>', 'only this action, e.g. developer.suspended')
    .option('-n, --lines <n>', 'how many rows to print first', '20')
    .option('--follow', 'keep polling for new rows until interrupted', false)
    .option('--interval <ms>', 'how often --follow polls', '2000')
    .option('--json', 'one JSON object per line', false)
    .action((o: { developer?: string; action?: string; lines: string; follow: boolean; interval: string; json: boolean }) =>
      run(async (app) => {
        const lines = Number(o.lines);
        if (!Number.isInteger(lines) || lines < 0 || lines > MAX_LINES) throw new DomainError('validation_error', `-n must be an integer from 0 to ${MAX_LINES}.`);
        const interval = Math.max(200, Number(o.interval) || 2000);
        const service = app.get(AuditService);
        const filter: AuditFilter = { developerId: o.developer, action: o.action };
        const print = (event: AuditEvent) => process.stdout.write(`${o.json ? JSON.stringify(eventJson(event)) : humanLine(event)}\n`);

        const latest = lines > 0 ? (await service.list(filter, { limit: lines })).items.reverse() : [];
        latest.forEach(print);
        if (!o.follow) return;
        // Start after the newest row there is (not only the newest printed): -n 0 --follow prints only new rows.
        let after = latest.at(-1)?.seq ?? (await service.list(filter, { limit: 1 })).items[0]?.seq ?? 0n;
        while (!stop.aborted) {
          await sleep(interval, stop);
          for (const event of await service.after(filter, after)) {
            print(event);
            after = event.seq;
          }
        }
      }, o.json),
    );
}

function humanLine(e: AuditEvent): string {
  const target = e.target ? ` ${e.target.type}:${e.target.id}` : '';
  const who = `${e.actor.type}:${e.actor.label ?? e.actor.id ?? '-'}`;
  const account = e.developerId ? ` developer:${e.developerId}` : '';
  const note = typeof e.after?.note === 'string' ? ` note="${e.after.note}"` : '';
  return `${e.occurredAt.toISOString()}  ${e.action.padEnd(26)} ${who}${target}${account}${e.ip ? ` ip:${e.ip}` : ''}${note}`;
}

function eventJson(e: AuditEvent) {
  return {
    id: e.id,
    occurred_at: e.occurredAt.toISOString(),
    actor: e.actor,
    developer_id: e.developerId,
    action: e.action,
    target: e.target,
    ip: e.ip,
    before: e.before,
    after: e.after,
  };
}

/** Aborted on Ctrl-C / SIGTERM, so `--follow` ends its loop and the CLI closes its connections. */
function interrupted(): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  return controller.signal;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
