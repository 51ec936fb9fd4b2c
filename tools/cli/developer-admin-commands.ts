import type { INestApplicationContext } from '@nestjs/common';
import { AuditService, operatorActor } from '@gateway/domain/audit';
import { type Developer, developerStatus, DevelopersService } from '@gateway/domain/developers';
import { platformRoleAllows, UsersService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import { type Command, Option } from 'commander';

type Output = (human: string, json: unknown) => void;
type Run = (action: (app: INestApplicationContext, out: Output) => Promise<void>, json: boolean) => Promise<void>;

/** The most accounts `developers list` prints (newest first); narrow with --q or --status. */
const LIST_LIMIT = 200;

/**
 * `developers list|suspend|reactivate`: the portal's account administration from a terminal.
 * Suspending and reactivating name the staff member (`--by`), who must hold a platform role that
 * may suspend; the audit log records them as the operator.
 */
export function addDeveloperAdminCommands(program: Command, run: Run): void {
  const developers = program.command('developers').description('Developer account administration');
  developers
    .command('list')
    .description('Accounts, newest first')
    .option('--q <text>', 'part of the name or e-mail (case-insensitive)')
    .addOption(new Option('--status <status>', 'active or suspended').choices(['active', 'suspended']))
    .option('--json', 'machine-readable output', false)
    .action((o: { q?: string; status?: 'active' | 'suspended'; json: boolean }) =>
      run(async (app, out) => {
        const page = await app.get(DevelopersService).search({ q: o.q, status: o.status }, { limit: LIST_LIMIT });
        const lines = page.items.map((d) => `${d.id}  ${developerStatus(d).padEnd(9)}  ${d.email}  ${d.name}`);
        out(lines.length ? lines.join('\n') : 'No developer accounts match.', page.items.map(listJson));
      }, o.json),
    );
  developers
    .command('suspend')
    .description("Suspend an account: its keys and its members' portal access are refused at once")
    .argument('<developer>', 'developer id or e-mail')
    .requiredOption('--reason <text>', 'why (kept on the account and in the audit log)')
    .requiredOption('--by <email>', 'the staff member suspending it (a platform admin)')
    .option('--json', 'machine-readable output', false)
    .action((who: string, o: { reason: string; by: string; json: boolean }) =>
      run(async (app, out) => {
        await assertMaySuspend(app, o.by);
        const service = app.get(DevelopersService);
        const suspended = await service.suspend((await service.find(who)).id, o.reason, { record: app.get(AuditService).developerRecorder(operatorActor(o.by)) });
        out(`Account ${suspended.email} suspended.`, listJson(suspended));
      }, o.json),
    );
  developers
    .command('reactivate')
    .description('Lift a suspension')
    .argument('<developer>', 'developer id or e-mail')
    .requiredOption('--by <email>', 'the staff member reactivating it (a platform admin)')
    .option('--json', 'machine-readable output', false)
    .action((who: string, o: { by: string; json: boolean }) =>
      run(async (app, out) => {
        await assertMaySuspend(app, o.by);
        const service = app.get(DevelopersService);
        const active = await service.reactivate((await service.find(who)).id, { record: app.get(AuditService).developerRecorder(operatorActor(o.by)) });
        out(`Account ${active.email} reactivated.`, listJson(active));
      }, o.json),
    );
}

/** @throws insufficient_role unless the e-mail is a staff member who may suspend accounts */
async function assertMaySuspend(app: INestApplicationContext, email: string): Promise<void> {
  const user = await app.get(UsersService).findByEmail(email);
  if (!user?.platformRole || !platformRoleAllows(user.platformRole, 'platform:developers:suspend')) {
    throw new DomainError('insufficient_role', `${email} is not a platform admin.`);
  }
}

function listJson(d: Developer) {
  return {
    id: d.id,
    email: d.email,
    name: d.name,
    status: developerStatus(d),
    email_verified_at: d.emailVerifiedAt,
    identity_verified_at: d.identityVerifiedAt,
    suspended_at: d.suspendedAt,
    suspension_reason: d.suspensionReason,
    created_at: d.createdAt,
  };
}
