import { createHash } from 'node:crypto';
import { query } from './support/db';
import { runEntry } from './support/processes';

const databaseUrl = process.env.TEST_DATABASE_URL as string;
const cli = (...args: string[]) => runEntry('tools/cli/main.ts', args, { DATABASE_URL: databaseUrl });
// Each command is a Node process starting under the TypeScript loader (2–4 s of CPU): a test of
// several commands outlasts jest's 30 s default while other test projects share the cores.
jest.setTimeout(120_000);

describe('operator CLI', () => {
  it('gives a new user a verified test developer with a secret key in one command, storing only its hash', async () => {
    const result = await cli('developer', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--verified', '--with-test-key', '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.developer).toMatchObject({ email: 'ada@example.com', name: 'Ada', email_verified: true, identity_verified: false });
    expect(out.key.secret).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/);

    const rows = await query<{ key_hash: string; key_hint: string }>('SELECT key_hash, key_hint FROM api_keys WHERE developer_id = $1', [out.developer.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(out.key.secret).digest('hex'));
    const dump = JSON.stringify(await query('SELECT * FROM api_keys'));
    expect(dump).not.toContain(out.key.secret);
  });

  it('refuses a second developer with the same e-mail (any case)', async () => {
    await cli('developer', 'create', '--email', 'dup@example.com', '--name', 'Dup');
    const again = await cli('developer', 'create', '--email', 'DUP@example.com', '--name', 'Dup again');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('issues scoped live and publishable keys and refuses unknown scopes', async () => {
    const dev = JSON.parse((await cli('developer', 'create', '--email', 'keys@example.com', '--name', 'Keys', '--json')).stdout).developer;
    const live = JSON.parse((await cli('keys', 'create', '--developer', dev.id, '--mode', 'live', '--scopes', 'payments:read,customers:write', '--json')).stdout);
    expect(live.secret).toMatch(/^sk_live_/);
    expect(live.scopes).toEqual(['payments:read', 'customers:write']);
    const pk = JSON.parse((await cli('keys', 'create', '--developer', 'keys@example.com', '--mode', 'test', '--kind', 'publishable', '--json')).stdout);
    expect(pk.secret).toMatch(/^pk_test_/);

    const bad = await cli('keys', 'create', '--developer', dev.id, '--mode', 'test', '--scopes', 'payments:delete');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Unknown scope: payments:delete/);
    const badMode = await cli('keys', 'create', '--developer', dev.id, '--mode', 'staging');
    expect(badMode.code).not.toBe(0);
  });

  it('warns on stderr that a live key of a developer whose identity is not verified is refused until verification', async () => {
    const dev = JSON.parse((await cli('developer', 'create', '--email', 'unverified-live@example.com', '--name', 'Unverified', '--json')).stdout).developer;
    const live = await cli('keys', 'create', '--developer', dev.id, '--mode', 'live', '--json');
    expect(live.code).toBe(0);
    expect(JSON.parse(live.stdout).secret).toMatch(/^sk_live_/);
    expect(live.stderr).toMatch(/^warning: unverified-live@example\.com has not completed identity verification: .*refused with live_mode_not_enabled.*developer verify-identity/);
    expect(live.stderr.trim().split('\n')).toHaveLength(1);

    const test = await cli('keys', 'create', '--developer', dev.id, '--mode', 'test', '--json');
    expect(test.stderr).toBe('');
    await cli('developer', 'verify-identity', dev.id);
    const verified = await cli('keys', 'create', '--developer', dev.id, '--mode', 'live', '--json');
    expect(verified.code).toBe(0);
    expect(verified.stderr).toBe('');
  });

  it('revokes a key and verifies identity', async () => {
    const created = JSON.parse((await cli('developer', 'create', '--email', 'rev@example.com', '--name', 'Rev', '--with-test-key', '--json')).stdout);
    const revoked = await cli('keys', 'revoke', created.key.id, '--json');
    expect(revoked.code).toBe(0);
    const [row] = await query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE id = $1', [created.key.id]);
    expect(row.revoked_at).not.toBeNull();

    const verified = JSON.parse((await cli('developer', 'verify-identity', 'rev@example.com', '--json')).stdout);
    expect(verified.developer.identity_verified).toBe(true);
    expect((await cli('keys', 'revoke', '00000000-0000-0000-0000-000000000000')).stderr).toMatch(/No such API key/);
  });

  it('sets per-currency fee overrides exactly, including zero, and refuses bad amounts', async () => {
    const dev = JSON.parse((await cli('developer', 'create', '--email', 'fees@example.com', '--name', 'Fees', '--json')).stdout).developer;
    expect((await cli('fees', 'set', '--developer', dev.id, '--currency', 'NGN', '--amount', '0')).code).toBe(0);
    expect((await cli('fees', 'set', '--developer', dev.id, '--currency', 'usd', '--amount', '0.10')).code).toBe(0);
    const rows = await query<{ currency: string; amount: string }>(
      'SELECT currency, amount::text FROM developer_fee_overrides WHERE developer_id = $1 ORDER BY currency',
      [dev.id],
    );
    expect(rows).toEqual([
      { currency: 'NGN', amount: '0.00' },
      { currency: 'USD', amount: '0.10' },
    ]);
    expect((await cli('fees', 'set', '--developer', dev.id, '--currency', 'NGN', '--amount', '1.005')).stderr).toMatch(/at most two decimals/);
    expect((await cli('fees', 'set', '--developer', dev.id, '--currency', 'EUR', '--amount', '1')).stderr).toMatch(/Unsupported currency/);
  });
});
