import type { INestApplicationContext } from '@nestjs/common';
import { API_KEY_KINDS, type ApiKeyKind, type Mode, MODES } from '@gateway/contracts';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { AuditService, operatorActor } from '@gateway/domain/audit';
import { type Developer, developerStatus, DevelopersService } from '@gateway/domain/developers';
import { Amount, DomainError, isCurrency } from '@gateway/platform';
import { Command, Option } from 'commander';
import { addAuditCommands } from './audit-commands';
import { addDeveloperAdminCommands } from './developer-admin-commands';
import { addSettlementCommands } from './settlement-commands';
import { addUserCommands } from './user-commands';

type Output = (human: string, json: unknown) => void;

/** Builds the command tree; each action receives the booted application context. */
export function buildProgram(run: (action: (app: INestApplicationContext, out: Output) => Promise<void>, json: boolean) => Promise<void>): Command {
  const program = new Command('gateway')
    .description('Operator commands for the payment gateway')
    .showHelpAfterError()
    .exitOverride();

  const developer = program.command('developer').description('Developer accounts');
  developer
    .command('create')
    .description('Provision a developer account (optionally with a test secret key)')
    .requiredOption('--email <email>', 'e-mail address')
    .requiredOption('--name <name>', 'display name')
    .option('--verified', 'mark the e-mail as verified (test mode usable at once)', false)
    .option('--identity-verified', 'mark identity verification complete (live mode enabled)', false)
    .option('--with-test-key', 'also issue an sk_test_ secret key (printed once)', false)
    .option(BY_FLAGS, BY_HELP)
    .option('--json', 'machine-readable output', false)
    .action((o: { email: string; name: string; verified: boolean; identityVerified: boolean; withTestKey: boolean; by?: string; json: boolean }) =>
      run(async (app, out) => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(o.email)) throw new DomainError('validation_error', `Invalid e-mail: ${o.email}`);
        const actor = operatorActor(o.by);
        const created = await app.get(DevelopersService).create(
          { email: o.email, name: o.name, emailVerified: o.verified, identityVerified: o.identityVerified },
          app.get(AuditService).developerRecorder(actor),
        );
        const issued = o.withTestKey
          ? await app.get(ApiKeysService).issue({ developerId: created.id, mode: 'test', kind: 'secret' }, actor)
          : undefined;
        out(
          [`Developer ${created.id} <${created.email}> created.`, issued ? `Secret key (shown once): ${issued.secret}` : '']
            .filter(Boolean)
            .join('\n'),
          { developer: developerJson(created), ...(issued ? { key: { id: issued.key.id, mode: 'test', kind: 'secret', secret: issued.secret } } : {}) },
        );
      }, o.json),
    );
  developer
    .command('verify-identity')
    .description('Complete identity verification (enables live mode)')
    .argument('<developer>', 'developer id or e-mail')
    .option(BY_FLAGS, BY_HELP)
    .option('--note <text>', 'a note kept in the audit log (up to 500 characters)')
    .option('--json', 'machine-readable output', false)
    .action((who: string, o: { by?: string; note?: string; json: boolean }) =>
      run(async (app, out) => {
        const service = app.get(DevelopersService);
        const verified = await service.verifyIdentity((await service.find(who)).id, staffAction(app, o));
        out(`Identity of ${verified.email} verified; live mode enabled.`, { developer: developerJson(verified) });
      }, o.json),
    );
  developer
    .command('verify-email')
    .description('Mark the e-mail address verified (enables test mode)')
    .argument('<developer>', 'developer id or e-mail')
    .option(BY_FLAGS, BY_HELP)
    .option('--note <text>', 'a note kept in the audit log (up to 500 characters)')
    .option('--json', 'machine-readable output', false)
    .action((who: string, o: { by?: string; note?: string; json: boolean }) =>
      run(async (app, out) => {
        const service = app.get(DevelopersService);
        const verified = await service.verifyEmail((await service.find(who)).id, staffAction(app, o));
        out(`E-mail ${verified.email} verified.`, { developer: developerJson(verified) });
      }, o.json),
    );

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .description('Issue an API key; the key is printed exactly once and only its SHA-256 is stored')
    .requiredOption('--developer <developer>', 'developer id or e-mail')
    .addOption(new Option('--mode <mode>', 'test or live').choices([...MODES]).makeOptionMandatory())
    .addOption(new Option('--kind <kind>', 'secret or publishable').choices([...API_KEY_KINDS]).default('secret'))
    .option('--scopes <scopes>', 'comma-separated scopes; omitted = full access', '')
    .option('--name <name>', 'a label for the key')
    .option(BY_FLAGS, BY_HELP)
    .option('--json', 'machine-readable output', false)
    .action((o: { developer: string; mode: Mode; kind: ApiKeyKind; scopes: string; name?: string; by?: string; json: boolean }) =>
      run(async (app, out) => {
        const dev = await app.get(DevelopersService).find(o.developer);
        const scopes = o.scopes.split(',').map((s) => s.trim()).filter(Boolean);
        const issued = await app.get(ApiKeysService).issue({ developerId: dev.id, mode: o.mode, kind: o.kind, scopes, name: o.name }, operatorActor(o.by));
        if (o.mode === 'live' && !dev.identityVerifiedAt) {
          // The key is issued (verification may follow), but the operator must not think it works yet.
          process.stderr.write(
            `warning: ${dev.email} has not completed identity verification: requests with this live key are refused with live_mode_not_enabled until \`npm run cli -- developer verify-identity ${dev.email}\`\n`,
          );
        }
        out(`Key ${issued.key.id} (${issued.key.keyHint}) issued. Store it now, it is not shown again:\n${issued.secret}`, {
          id: issued.key.id,
          developer_id: dev.id,
          mode: issued.key.mode,
          kind: issued.key.kind,
          scopes: issued.key.scopes,
          secret: issued.secret,
        });
      }, o.json),
    );
  keys
    .command('revoke')
    .description('Revoke an API key (takes effect at once)')
    .argument('<key-id>', 'the key id')
    .option(BY_FLAGS, BY_HELP)
    .option('--json', 'machine-readable output', false)
    .action((keyId: string, o: { by?: string; json: boolean }) =>
      run(async (app, out) => {
        const service = app.get(ApiKeysService);
        const key = await service.getForOperator(keyId);
        const revoked = await service.revoke(key.developerId, key.id, operatorActor(o.by));
        out(`Key ${revoked.id} (${revoked.keyHint}) revoked.`, { id: revoked.id, revoked_at: revoked.revokedAt });
      }, o.json),
    );

  const fees = program.command('fees').description('Platform fees');
  fees
    .command('set')
    .description('Set the platform fee a developer pays per successful transaction (0 allowed)')
    .requiredOption('--developer <developer>', 'developer id or e-mail')
    .requiredOption('--currency <currency>', 'NGN, USD, GBP or KES')
    .requiredOption('--amount <amount>', 'flat fee in the major unit, e.g. 10 or 0')
    .option(BY_FLAGS, BY_HELP)
    .option('--json', 'machine-readable output', false)
    .action((o: { developer: string; currency: string; amount: string; by?: string; json: boolean }) =>
      run(async (app, out) => {
        const currency = o.currency.toUpperCase();
        if (!isCurrency(currency)) throw new DomainError('invalid_currency', `Unsupported currency ${o.currency}.`);
        const amount = parseAmount(o.amount);
        const service = app.get(DevelopersService);
        const dev = await service.find(o.developer);
        const actor = operatorActor(o.by);
        await service.setFeeOverride(dev.id, currency, amount, actor.label ?? 'cli', app.get(AuditService).developerRecorder(actor));
        out(`Platform fee for ${dev.email} in ${currency} set to ${amount.toString()}.`, {
          developer_id: dev.id,
          currency,
          amount: amount.toNumber(),
        });
      }, o.json),
    );
  addUserCommands(program, run);
  addSettlementCommands(program, run);
  addDeveloperAdminCommands(program, run);
  addAuditCommands(program, run);
  return program;
}

/** Every changing command names its operator for the audit log (actor type `operator`); `cli` when omitted. */
const BY_FLAGS = '--by <email>';
const BY_HELP = 'who runs this (recorded in the audit log; default "cli")';

function staffAction(app: INestApplicationContext, o: { by?: string; note?: string }) {
  if (o.note && o.note.length > 500) throw new DomainError('validation_error', '--note must have at most 500 characters.');
  return { record: app.get(AuditService).developerRecorder(operatorActor(o.by)), note: o.note?.trim() || undefined };
}

function parseAmount(text: string): Amount {
  try {
    return Amount.parse(text);
  } catch {
    throw new DomainError('validation_error', `Invalid amount ${text}: use at most two decimals, e.g. 10.50.`);
  }
}

function developerJson(d: Developer) {
  return {
    id: d.id,
    email: d.email,
    name: d.name,
    email_verified: d.emailVerifiedAt !== null,
    identity_verified: d.identityVerifiedAt !== null,
    status: developerStatus(d),
    created_at: d.createdAt,
  };
}
