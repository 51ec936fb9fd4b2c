import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { query } from './support/db';
import { entryArgs, runEntry, WORKSPACE_ROOT } from './support/processes';

const databaseUrl = process.env.TEST_DATABASE_URL as string;
const cli = (...args: string[]) => runEntry('tools/cli/main.ts', args, { DATABASE_URL: databaseUrl });
const json = async (...args: string[]) => {
  const result = await cli(...args, '--json');
  if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout);
};

/** The operator CLI's account administration and audit commands; every change is audited as the operator named by --by. */
/** Each command is a fresh process (TypeScript compiled on the fly, migrations checked): seconds each on a busy machine. */
const CLI_TIMEOUT = 180_000;

describe('operator CLI: developers, settlements and the audit log', () => {
  const tag = randomBytes(4).toString('hex');
  const staff = `ops-${tag}@example.com`;
  const secretary = `fin-${tag}@example.com`;
  let developer: { id: string; email: string };

  beforeAll(async () => {
    await query(`INSERT INTO users (email, name, platform_role) VALUES ($1, 'Ops', 'admin'), ($2, 'Fin', 'financial_secretary')`, [staff, secretary]);
    await cli('developer', 'create', '--email', `zephyr-${tag}@example.com`, '--name', `Zephyr Logistics ${tag}`, '--by', staff);
    developer = (await json('developers', 'list', '--q', `ZEPHYR-${tag}`))[0];
  }, CLI_TIMEOUT);

  it('lists accounts by part of the name or e-mail and by status', async () => {
    expect(developer).toMatchObject({ email: `zephyr-${tag}@example.com`, status: 'active', suspended_at: null });
    expect((await json('developers', 'list', '--q', `logistics ${tag}`)).map((d: { id: string }) => d.id)).toEqual([developer.id]);
    expect(await json('developers', 'list', '--q', tag, '--status', 'suspended')).toEqual([]);
    const human = await cli('developers', 'list', '--q', tag);
    expect(human.stdout).toContain(`zephyr-${tag}@example.com`);
    expect((await cli('developers', 'list', '--status', 'paused')).code).not.toBe(0);
  }, CLI_TIMEOUT);

  it('suspends and reactivates as a platform admin only, once each, audited as the operator', async () => {
    const refused = await cli('developers', 'suspend', developer.email, '--reason', 'fraud', '--by', secretary);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/not a platform admin/)]);

    const suspended = await json('developers', 'suspend', developer.email, '--reason', 'Chargebacks', '--by', staff);
    expect(suspended).toMatchObject({ id: developer.id, status: 'suspended', suspension_reason: 'Chargebacks' });
    const twice = await cli('developers', 'suspend', developer.id, '--reason', 'again', '--by', staff);
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringMatching(/is suspended/)]);
    expect((await json('developers', 'list', '--q', tag, '--status', 'suspended')).map((d: { id: string }) => d.id)).toEqual([developer.id]);

    expect(await json('developers', 'reactivate', developer.id, '--by', staff)).toMatchObject({ status: 'active', suspended_at: null });
    const active = await cli('developers', 'reactivate', developer.id, '--by', staff);
    expect([active.code, active.stderr]).toEqual([1, expect.stringMatching(/is active/)]);

    const audited = await query<{ action: string; actor_type: string; actor_label: string; ip: string | null }>(
      `SELECT action, actor_type, actor_label, ip FROM audit_events WHERE developer_id = $1 ORDER BY seq`,
      [developer.id],
    );
    expect(audited).toEqual([
      { action: 'developer.provisioned', actor_type: 'operator', actor_label: staff, ip: null },
      { action: 'developer.suspended', actor_type: 'operator', actor_label: staff, ip: null },
      { action: 'developer.reactivated', actor_type: 'operator', actor_label: staff, ip: null },
    ]);
  }, CLI_TIMEOUT);

  it('audits key issuing, fee changes and verification without --by as `cli`', async () => {
    const created = await json('developer', 'create', '--email', `plain-${tag}@example.com`, '--name', 'Plain', '--with-test-key');
    await cli('fees', 'set', '--developer', created.developer.id, '--currency', 'NGN', '--amount', '15');
    await cli('developer', 'verify-identity', created.developer.id, '--note', 'documents checked', '--by', staff);
    const rows = await query<{ action: string; actor_label: string; after: Record<string, unknown> }>(`SELECT action, actor_label, after FROM audit_events WHERE developer_id = $1 ORDER BY seq`, [created.developer.id]);
    expect(rows).toMatchObject([
      { action: 'developer.provisioned', actor_label: 'cli' },
      { action: 'api_key.created', actor_label: 'cli', after: { hint: expect.stringMatching(/^sk_test_…/) } },
      { action: 'fee_override.set', actor_label: 'cli', after: { currency: 'NGN', amount: '15.00' } },
      { action: 'developer.identity_verified', actor_label: staff, after: { note: 'documents checked' } },
    ]);
    expect(JSON.stringify(rows)).not.toContain(created.key.secret);
    const [change] = await query<{ changed_by: string; amount: string }>(`SELECT changed_by, amount::text FROM developer_fee_override_changes WHERE developer_id = $1`, [created.developer.id]);
    expect(change).toEqual({ changed_by: 'cli', amount: '15.00' });
  }, CLI_TIMEOUT);

  it('lists settlements, optionally only those awaiting approval', async () => {
    const all = await json('settlements', 'list');
    expect(Array.isArray(all)).toBe(true);
    const pending = await json('settlements', 'list', '--status', 'pending_approval');
    expect(pending.every((s: { status: string }) => s.status === 'pending_approval')).toBe(true);
    expect((await cli('settlements', 'list', '--status', 'lost')).code).not.toBe(0);
  }, CLI_TIMEOUT);

  it('tails the audit log, oldest of the last n first, and follows new rows until interrupted', async () => {
    const tail = await cli('audit', 'tail', '--developer', developer.id, '-n', '2', '--json');
    expect(tail.code).toBe(0);
    expect(tail.stdout.trim().split('\n').map((line) => JSON.parse(line).action)).toEqual(['developer.suspended', 'developer.reactivated']);
    const human = await cli('audit', 'tail', '--developer', developer.id, '--action', 'developer.suspended');
    expect(human.stdout).toMatch(/developer\.suspended\s+operator:ops-/);

    const follower = spawn(process.execPath, [...entryArgs('tools/cli/main.ts'), 'audit', 'tail', '--developer', developer.id, '-n', '1', '--follow', '--interval', '200', '--json'], {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    follower.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((done) => follower.on('exit', (code) => done(code)));
    try {
      // The follower is connected once it printed the latest row; then change the account twice.
      const ready = Date.now() + 30_000;
      while (!out.includes('developer.reactivated') && Date.now() < ready) await new Promise((r) => setTimeout(r, 200));
      await cli('developers', 'suspend', developer.id, '--reason', 'followed', '--by', staff);
      await cli('developers', 'reactivate', developer.id, '--by', staff);
      const deadline = Date.now() + 20_000;
      while (out.split('developer.reactivated').length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    } finally {
      follower.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out.trim().split('\n').map((line) => JSON.parse(line).action)).toEqual(['developer.reactivated', 'developer.suspended', 'developer.reactivated']);
  }, CLI_TIMEOUT);
});
