import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { dropTestDatabase } from '@gateway/platform/testing';
import { startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { applicationLogFiles, ARTIFACTS_DIR_VARIABLE, artifactsDir, isE2eWorkerDatabase, keptDatabases } from '../support/test-artifacts';
import { type DatabaseScan, scanDatabase } from './secrets-at-rest/database-scan';
import { scanLogs } from './secrets-at-rest/log-scan';
import { type Finding, secretsIn } from './secrets-at-rest/patterns';
import { cardNumber, pushSecrets, type Seeded } from './secrets-at-rest/seed';

/** A readable list of findings (excerpts only: a report must not repeat a secret). */
const report = (findings: Finding[]) => [...new Set(findings.map((f) => `${f.kind} in ${f.place}: ${f.excerpt}`))].slice(0, 50);

/**
 * Reliability row 11 (secrets at rest): card numbers (13–19 digits passing Luhn), secret API keys,
 * webhook signing secrets and TOTP secrets (base32, otpauth:// URIs) in clear — none in the request
 * logs, in the application logs, or in any column the gateway fills (merchant metadata is the
 * merchant's and stays as sent: a documented test card may sit there).
 *
 * In `npm run test:all` this runs after the e2e tests, whose databases and application logs the run
 * kept for it (apps/api-e2e/src/support/test-artifacts.ts): every one of them is scanned. A preamble
 * first pushes secrets through every path on a database of its own (secrets-at-rest/seed.ts), so
 * the scan means something even when this file runs alone.
 */
describe('reliability: no secret at rest', () => {
  let h: PaymentsHarness;
  let seeded: Seeded;
  /** Set when this file runs without `npm run test:all` or `test:reliability`: its own artifacts, removed at the end. */
  let ownArtifacts: string | undefined;
  const scans: DatabaseScan[] = [];

  beforeAll(async () => {
    if (!artifactsDir()) {
      ownArtifacts = mkdtempSync(join(tmpdir(), 'gateway-secrets-scan-'));
      process.env[ARTIFACTS_DIR_VARIABLE] = ownArtifacts;
    }
    h = await startPaymentsHarness({}, { ownDatabase: true });
    seeded = await pushSecrets(h);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (ownArtifacts) {
      for (const url of keptDatabases(ownArtifacts)) await dropTestDatabase(url);
      rmSync(ownArtifacts, { recursive: true, force: true });
      delete process.env[ARTIFACTS_DIR_VARIABLE];
    }
    for (const s of scans) process.stdout.write(`secrets at rest: ${s.database}: ${s.tables} tables, ${s.columns} text columns, ${s.valuesRead} values read in full\n`);
  });

  it('the scan finds each kind of secret it looks for (so an empty result means something)', () => {
    const card = cardNumber();
    const found = (text: string, metadata = false) => secretsIn(text, 'probe', metadata, seeded.known).map((f) => f.kind);
    expect(found(`paid with ${card}`)).toEqual(['card number']);
    expect(found(`paid with ${card.replace(/(\d{4})(?=\d)/g, '$1 ')}`)).toEqual(['card number']);
    expect(found(`{"card":"${card}"}`, true)).toEqual(['card number (in merchant metadata, not a test card)']);
    expect(found('4084084084084081', true)).toEqual([]);
    expect(found('4084084084084081')).toEqual(['card number']);
    expect(found('408408******4081 +2348012345678 1764002700000 0.4084084084084081')).toEqual([]);
    expect(found(`sk_live_${'a1'.repeat(20)}`)).toEqual(['secret API key']);
    expect(found(`whsec_${'Zx9_'.repeat(10)}`)).toEqual(['webhook signing secret']);
    expect(found('otpauth://totp/Gateway:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toEqual(['otpauth URI', 'TOTP secret (base32)']);
    for (const secret of seeded.known) expect(found(`x ${secret} y`)).toContain('a secret the test pushed');
  });

  it('the preamble pushed secrets through every path: none is stored or logged in clear', async () => {
    expect(seeded.requests).toBeGreaterThan(8);
    const client = new Client({ connectionString: h.databaseUrl });
    await client.connect();
    try {
      // The paths were taken: logged requests, a TOTP secret, two webhook secrets and a stored answer, all sealed.
      const [row] = (
        await client.query(`SELECT (SELECT count(*) FROM request_logs)::int AS logged,
                                   (SELECT count(*) FROM user_totp WHERE confirmed_at IS NOT NULL)::int AS totp,
                                   (SELECT count(*) FROM webhook_endpoints WHERE previous_secret_ciphertext IS NOT NULL)::int AS rotated,
                                   (SELECT count(*) FROM idempotency_keys WHERE response_body IS NOT NULL)::int AS answers`)
      ).rows;
      expect([row.logged >= seeded.requests, row.totp, row.rotated, row.answers > 0]).toEqual([true, 1, 1, true]);
    } finally {
      await client.end();
    }
    const scan = await scanDatabase(h.databaseUrl, seeded.known);
    scans.push(scan);
    expect(report(scan.findings)).toEqual([]);
  });

  it('after the whole suite: every database the tests kept, and every application log, hold no secret in clear', async () => {
    const dir = artifactsDir() as string;
    const databases = [...new Set([process.env.TEST_DATABASE_URL as string, ...keptDatabases(dir)])].filter((url) => url !== h.databaseUrl);
    const findings: Finding[] = [];
    for (const url of databases) {
      if (!(await databaseExists(url))) continue;
      const scan = await scanDatabase(url, seeded.known);
      scans.push(scan);
      findings.push(...scan.findings);
    }
    const logs = scanLogs(applicationLogFiles(dir), seeded.known);
    process.stdout.write(`secrets at rest: ${logs.files} application logs, ${logs.lines} lines\n`);
    // Alone (`npm run test:reliability`), no e2e test ran before this row: say so, the scan then covers the rows' own databases and logs.
    const fromE2e = databases.filter(isE2eWorkerDatabase).length;
    process.stdout.write(
      fromE2e > 0
        ? `secrets at rest: ${databases.length} kept databases besides the preamble's, ${fromE2e} of them the e2e tests' shared ones\n`
        : `secrets at rest: no e2e test database in this run (\`npm run test:all\` runs the e2e tests first and keeps theirs): scanned the preamble's database, ${databases.length} more of the reliability run and ${logs.files} application logs\n`,
    );
    expect(logs.lines).toBeGreaterThan(0);
    expect(report([...findings, ...logs.findings])).toEqual([]);
  }, 600_000);
});

async function databaseExists(url: string): Promise<boolean> {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const client = new Client({ connectionString: server.toString() });
  await client.connect();
  try {
    return ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}
