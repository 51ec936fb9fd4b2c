import type { INestApplicationContext } from '@nestjs/common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gateway/contracts';
import { type PlatformRole, PLATFORM_ROLES, UsersService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import { type Command, Option } from 'commander';

type Output = (human: string, json: unknown) => void;
type Run = (action: (app: INestApplicationContext, out: Output) => Promise<void>, json: boolean) => Promise<void>;

/**
 * `users create-admin`: bootstraps platform staff (the first administrator above all), who then
 * provision developer accounts in the portal. The password is read from standard input so it
 * never appears in the process list or shell history.
 */
export function addUserCommands(program: Command, run: Run, readStdin: () => Promise<string> = readAllStdin): void {
  const users = program.command('users').description('Portal users (platform staff)');
  users
    .command('create-admin')
    .description('Create a platform administrator (or financial secretary) who can sign in to the portal')
    .requiredOption('--email <email>', 'e-mail address (the sign-in name)')
    .option('--name <name>', 'display name', 'Administrator')
    .addOption(new Option('--role <role>', 'platform role').choices([...PLATFORM_ROLES]).default('admin'))
    .requiredOption('--password-stdin', 'read the password (at least 12 characters) from standard input')
    .option('--json', 'machine-readable output', false)
    .action((o: { email: string; name: string; role: PlatformRole; json: boolean }) =>
      run(async (app, out) => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(o.email)) throw new DomainError('validation_error', `Invalid e-mail: ${o.email}`);
        // One trailing newline (from echo or a heredoc) is not part of the password.
        const password = (await readStdin()).replace(/\r?\n$/, '');
        if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
          throw new DomainError('validation_error', `The password must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`);
        }
        const user = await app.get(UsersService).createPlatformUser({ email: o.email, name: o.name, password, platformRole: o.role });
        out(`Platform ${o.role} ${user.email} created (${user.id}). Sign in to the portal with this e-mail.`, {
          id: user.id,
          email: user.email,
          name: user.name,
          platform_role: user.platformRole,
        });
      }, o.json),
    );
}

async function readAllStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new DomainError('validation_error', '--password-stdin expects the password piped in, e.g. `printf %s "$PW" | npm run cli -- users create-admin …`.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
