import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersService } from '@gateway/domain/developers';
import { MailerService } from '@gateway/domain/identity';
import { WebhooksService } from '@gateway/domain/webhooks';
import { ConfigModule, type DeveloperContext, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EndpointDisablingService } from './endpoint-disabling.service';
import { WebhookAlertsModule } from './webhook-alerts.module';

const DAY_MS = 86_400_000;

describe('EndpointDisablingService (the scan that disables failing endpoints and tells their owners)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let disabling: EndpointDisablingService;
  let webhooks: WebhooksService;
  let dataSource: DataSource;

  const config = () =>
    ConfigModule.forRoot(
      testConfig({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_DAYS: '1', PORTAL_BASE_URL: 'https://portal.example.com' }),
    );

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([config(), WebhookAlertsModule]));
    disabling = app.get(EndpointDisablingService);
    webhooks = app.get(WebhooksService);
    dataSource = app.get(DataSource);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app?.close();
  });

  /** An account with two owners and a developer, and one endpoint whose run qualifies for disabling. */
  async function failingAccount(): Promise<{ ctx: DeveloperContext; reference: string; owners: string[]; developer: string }> {
    const tag = randomBytes(4).toString('hex');
    const account = await app.get(DevelopersService).create({ email: `alerts-${tag}@example.com`, name: `Acme ${tag}` });
    const people = { owners: [`owner1-${tag}@example.com`, `owner2-${tag}@example.com`], developer: `dev-${tag}@example.com` };
    for (const [email, role] of [...people.owners.map((e) => [e, 'owner']), [people.developer, 'developer']]) {
      const [user] = (await dataSource.query(`INSERT INTO users (email, name) VALUES ($1, 'Member') RETURNING id`, [email])) as Array<{ id: string }>;
      await dataSource.query(`INSERT INTO memberships (user_id, developer_id, role) VALUES ($1, $2, $3)`, [user.id, account.id, role]);
    }
    const ctx: DeveloperContext = { developerId: account.id, mode: 'test' };
    const { endpoint } = await webhooks.create(ctx, { url: 'http://127.0.0.1:9/hooks/secret-path?token=abc', events: ['customer.created'], webhookVersion: 'v1' });
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 3, failing_since = $2 WHERE id = $1`, [endpoint.id, new Date(clock.now().getTime() - 2 * DAY_MS)]);
    return { ctx, reference: endpoint.reference, ...people };
  }
  const mailsTo = (email: string) => dataSource.query(`SELECT subject, body FROM dev_mailbox WHERE recipient = $1`, [email]) as Promise<Array<{ subject: string; body: string }>>;
  const statusOf = async (reference: string) => ((await dataSource.query(`SELECT status FROM webhook_endpoints WHERE reference = $1`, [reference])) as Array<{ status: string }>)[0].status;

  it("disables the endpoint and mails each of the account's owners (not its other members), naming the host only", async () => {
    const account = await failingAccount();
    const disabled = await disabling.disableFailingEndpoints(50);
    expect(disabled.map((d) => d.reference)).toContain(account.reference);
    expect(await statusOf(account.reference)).toBe('disabled');
    for (const owner of account.owners) {
      const [mail, ...more] = await mailsTo(owner);
      expect(more).toEqual([]);
      expect(mail.subject).toBe('Webhook endpoint disabled: 127.0.0.1:9 (test mode)');
      expect(mail.body).toContain(account.reference);
      expect(mail.body).toContain('3 deliveries in a row failed');
      expect(mail.body).toContain(`https://portal.example.com/#/webhooks/${account.reference}`);
      expect(mail.body).not.toContain('secret-path');
      expect(mail.body).not.toContain('token=abc');
    }
    expect(await mailsTo(account.developer)).toEqual([]);
  });

  it('commits the disabling, its event and the e-mails together: a mail that cannot be queued leaves the endpoint enabled', async () => {
    const account = await failingAccount();
    // The first owner's mail is queued, the second's fails: the first is rolled back with the rest.
    const mailer = app.get(MailerService);
    const queue = mailer.send.bind(mailer);
    let calls = 0;
    const send = jest.spyOn(mailer, 'send').mockImplementation(async (mail, manager) => {
      calls += 1;
      if (calls === 2) throw new Error('mail queue unavailable');
      return queue(mail, manager);
    });
    await expect(disabling.disableFailingEndpoints(50)).rejects.toThrow('mail queue unavailable');
    send.mockRestore();
    expect(calls).toBe(2);
    expect(await mailsTo(account.owners[0])).toEqual([]);
    expect(await statusOf(account.reference)).toBe('enabled');
    expect(await dataSource.query(`SELECT 1 FROM events WHERE developer_id = $1 AND name = 'webhook_endpoint.disabled'`, [account.ctx.developerId])).toEqual([]);
    // The next scan does it.
    await disabling.disableFailingEndpoints(50);
    expect(await statusOf(account.reference)).toBe('disabled');
    expect(await mailsTo(account.owners[0])).toHaveLength(1);
  });

  it('two schedulers scanning at once disable it once: one event, one e-mail per owner', async () => {
    const account = await failingAccount();
    const runs = await Promise.all([disabling.disableFailingEndpoints(50), disabling.disableFailingEndpoints(50)]);
    expect(runs.flat().filter((d) => d.reference === account.reference)).toHaveLength(1);
    expect(await dataSource.query(`SELECT 1 FROM events WHERE developer_id = $1 AND name = 'webhook_endpoint.disabled'`, [account.ctx.developerId])).toHaveLength(1);
    for (const owner of account.owners) expect(await mailsTo(owner)).toHaveLength(1);
  });

  it('needs no connection but its transaction\'s: with a pool of one connection it disables and mails instead of waiting on itself', async () => {
    const account = await failingAccount();
    const onePool = await createDomainTestContext([config(), WebhookAlertsModule], clock, undefined, { size: 1, timeoutMs: 1_000 });
    try {
      const disabled = await onePool.app.get(EndpointDisablingService).disableFailingEndpoints(50);
      expect(disabled.map((d) => d.reference)).toContain(account.reference);
    } finally {
      await onePool.app.close();
    }
    expect(await statusOf(account.reference)).toBe('disabled');
    for (const owner of account.owners) expect(await mailsTo(owner)).toHaveLength(1);
  });
});
