import type { INestApplicationContext } from '@nestjs/common';
import { operatorActor } from '@gateway/domain/audit';
import { platformRoleAllows, UsersService } from '@gateway/domain/identity';
import { type Settlement, SettlementsService } from '@gateway/domain/settlements';
import { DomainError } from '@gateway/platform';
import { SETTLEMENT_STATUSES } from '@gateway/contracts';
import { type Command, Option } from 'commander';

type Output = (human: string, json: unknown) => void;
type Run = (action: (app: INestApplicationContext, out: Output) => Promise<void>, json: boolean) => Promise<void>;

/**
 * `settlements approve|reject <reference> --by <staff e-mail>`: the portal's approval queue from a
 * terminal. The decision is recorded as that staff member's (who must hold a platform role that
 * approves settlements), from the address `cli`; the same rules hold as in the portal (never the
 * requester, two people above the two-person threshold, each person once).
 */
export function addSettlementCommands(program: Command, run: Run): void {
  const settlements = program.command('settlements').description('Settlements awaiting approval');
  settlements
    .command('list')
    .description("Every account's settlements, newest first (--status pending_approval: the approval queue)")
    .addOption(new Option('--status <status>', 'only this status').choices([...SETTLEMENT_STATUSES]))
    .option('--json', 'machine-readable output', false)
    .action((o: { status?: Settlement['status']; json: boolean }) =>
      run(async (app, out) => {
        const page = await app.get(SettlementsService).list(null, { limit: LIST_LIMIT, status: o.status });
        const lines = page.items.map((s) => `${s.reference}  ${s.status.padEnd(16)}  ${s.amount.toString()} ${s.currency}  developer:${s.developerId}  ${s.createdAt.toISOString()}`);
        out(lines.length ? lines.join('\n') : 'No settlements match.', page.items.map(settlementJson));
      }, o.json),
    );
  settlements
    .command('approve')
    .description('Approve a settlement (it is paid out once enough people approved)')
    .argument('<reference>', 'settlement reference (stl_…)')
    .requiredOption('--by <email>', 'the approving staff member (platform admin or financial secretary)')
    .option('--json', 'machine-readable output', false)
    .action((reference: string, o: { by: string; json: boolean }) =>
      run(async (app, out) => {
        const actor = { userId: await staffMember(app, o.by), ip: 'cli', audit: operatorActor(o.by) };
        report(out, await app.get(SettlementsService).approve(reference, actor));
      }, o.json),
    );
  settlements
    .command('reject')
    .description('Reject a settlement; its reserved amount is released')
    .argument('<reference>', 'settlement reference (stl_…)')
    .requiredOption('--by <email>', 'the rejecting staff member (platform admin or financial secretary)')
    .requiredOption('--reason <text>', 'why (shown to the account)')
    .option('--json', 'machine-readable output', false)
    .action((reference: string, o: { by: string; reason: string; json: boolean }) =>
      run(async (app, out) => {
        if (!o.reason.trim()) throw new DomainError('validation_error', '--reason must not be empty.');
        const actor = { userId: await staffMember(app, o.by), ip: 'cli', audit: operatorActor(o.by) };
        report(out, await app.get(SettlementsService).reject(reference, actor, o.reason.trim()));
      }, o.json),
    );
}

/** @throws insufficient_role unless the e-mail is a staff member who may approve settlements */
async function staffMember(app: INestApplicationContext, email: string): Promise<string> {
  const user = await app.get(UsersService).findByEmail(email);
  if (!user?.platformRole || !platformRoleAllows(user.platformRole, 'platform:settlements:approve')) {
    throw new DomainError('insufficient_role', `${email} is not a platform admin or financial secretary.`);
  }
  return user.id;
}

/** The most settlements `settlements list` prints; narrow with --status. */
const LIST_LIMIT = 200;

function settlementJson(s: Settlement) {
  return {
    reference: s.reference,
    developer_id: s.developerId,
    status: s.status,
    amount: s.amount.toString(),
    currency: s.currency,
    created_at: s.createdAt,
  };
}

function report(out: Output, settlement: Settlement): void {
  out(`Settlement ${settlement.reference} (${settlement.amount} ${settlement.currency}) is now ${settlement.status}.`, {
    reference: settlement.reference,
    status: settlement.status,
    amount: settlement.amount.toNumber(),
    currency: settlement.currency,
  });
}
