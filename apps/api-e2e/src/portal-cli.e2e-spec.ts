import { spawn } from 'node:child_process';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { PortalClient, uniqueEmail } from './support/portal-client';
import { entryArgs, type ProcessResult, WORKSPACE_ROOT } from './support/processes';

/** `npm run cli -- …` with `stdin` piped in, as an operator would: `printf %s "$PW" | npm run cli -- …`. */
function cli(args: string[], stdin: string): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...entryArgs('tools/cli/main.ts'), ...args], {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: process.env.TEST_DATABASE_URL },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`cli ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

// Each command is a Node process starting under the TypeScript loader (2–4 s of CPU): a test of
// several commands outlasts jest's 30 s default while other test projects share the cores.
jest.setTimeout(120_000);

describe('operator CLI: bootstrapping the first platform administrator', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it('creates an administrator from a piped password, who can then sign in and provision accounts', async () => {
    const email = uniqueEmail('first-admin');
    const password = 'operator chosen passphrase';
    const result = await cli(['users', 'create-admin', '--email', email, '--name', 'First Admin', '--password-stdin', '--json'], `${password}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email, name: 'First Admin', platform_role: 'admin' });
    expect(JSON.stringify(await query('SELECT * FROM users WHERE email = $1', [email]))).not.toContain(password);

    const client = new PortalClient(gateway.baseUrl);
    expect((await client.login(email, password)).status).toBe(200);
    const provisioned = await client.post('/api/portal/admin/developers', { body: { email: uniqueEmail('acct'), name: 'Acct' } });
    expect(provisioned.status).toBe(201);
  });

  it('refuses a weak password and a duplicate e-mail', async () => {
    const email = uniqueEmail('dup-admin');
    const weak = await cli(['users', 'create-admin', '--email', email, '--password-stdin'], 'short');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toBe('error: The password must have 12 to 256 characters.\n');
    expect((await cli(['users', 'create-admin', '--email', email, '--role', 'financial_secretary', '--password-stdin'], 'long enough passphrase')).code).toBe(0);
    const again = await cli(['users', 'create-admin', '--email', email.toUpperCase(), '--password-stdin'], 'long enough passphrase');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has a portal account/);
  });
});
