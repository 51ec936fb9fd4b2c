import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type TestGateway, startGateway } from './support/gateway';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { WebhookReceiver } from './support/webhook-receiver';

/** A loopback port nothing listens on: bound, noted and closed again, so a connection is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface FailingRow {
  id: string;
  developer_id: string;
  developer_name: string;
  mode: string;
  url_host: string;
  failed_deliveries: number;
  last_failure_at: string;
  last_error: string | null;
  last_status_code: number | null;
  consecutive_failures: number;
}

/**
 * The admin console's failing webhook endpoints: across accounts and modes, for platform staff
 * only, the endpoints whose deliveries failed in the last seven days (a healthy one never shows).
 */
describe('GET /api/portal/admin/webhooks/failing', () => {
  let gateway: TestGateway;
  let admin: PortalClient;
  let secretary: PortalClient;
  let a: PortalAccount;
  let b: PortalAccount;
  let receiver: WebhookReceiver;
  let receiverUrl: string;

  beforeAll(async () => {
    gateway = await startGateway();
    admin = (await signedInPlatformUser(gateway)).client;
    secretary = (await signedInPlatformUser(gateway, 'financial_secretary')).client;
    a = await provisionAccount(gateway, admin);
    b = await provisionAccount(gateway, admin);
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await gateway?.close();
  });

  const addEndpoint = async (account: PortalAccount, url: string): Promise<string> => {
    const created = await account.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };
  const sendTest = async (account: PortalAccount, id: string) => {
    gateway.clock.advance(1000);
    return (await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } })).body.data as { success: boolean };
  };
  /** Every row, a page of `limit` at a time, following next_cursor. */
  const everyRow = async (client: PortalClient, limit = 100): Promise<FailingRow[]> => {
    const rows: FailingRow[] = [];
    let cursor: string | null = null;
    do {
      const page = await client.get(`/api/portal/admin/webhooks/failing?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      rows.push(...page.body.data);
      cursor = page.body.meta.has_more ? page.body.meta.next_cursor : null;
    } while (cursor);
    return rows;
  };

  it("shows an account's endpoint at a closed port after its deliveries fail, with the count, class and streak; not a healthy one", async () => {
    const port = await closedPort();
    const failing = await addEndpoint(a, `http://127.0.0.1:${port}/hooks/secret-token?key=abc`);
    const healthy = await addEndpoint(b, receiverUrl);
    expect(await sendTest(a, failing)).toMatchObject({ success: false });
    expect(await sendTest(a, failing)).toMatchObject({ success: false });
    expect(await sendTest(b, healthy)).toMatchObject({ success: true });

    const rows = await everyRow(admin);
    const row = rows.find((r) => r.id === failing);
    expect(row).toEqual({
      id: failing,
      developer_id: a.developerId,
      developer_name: 'Acme Ltd',
      mode: 'test',
      url_host: `127.0.0.1:${port}`,
      failed_deliveries: 2,
      last_failure_at: expect.any(String),
      last_error: 'refused',
      last_status_code: null,
      consecutive_failures: 2,
    });
    expect(rows.some((r) => r.id === healthy)).toBe(false);
    // Only the host: the path and query (the account's own tokens) never leave the account.
    expect(JSON.stringify(rows)).not.toContain('secret-token');

    // Financial secretaries see it too (platform:overview:read).
    expect((await everyRow(secretary)).some((r) => r.id === failing)).toBe(true);
  });

  it('pages newest failure first without gaps or repeats, and a receiver answering 500 counts; recovery ends the streak', async () => {
    const first = await addEndpoint(a, `${receiverUrl}/first`);
    const second = await addEndpoint(b, `${receiverUrl}/second`);
    receiver.respond = () => 500;
    await sendTest(a, first);
    await sendTest(b, second);
    receiver.respond = () => 200;

    const all = await everyRow(admin);
    const paged = await everyRow(admin, 1);
    expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(new Set(paged.map((r) => r.id)).size).toBe(paged.length);
    const ids = all.map((r) => r.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(all.find((r) => r.id === second)).toMatchObject({ last_error: 'http_status', last_status_code: 500, consecutive_failures: 1 });

    // It delivers again: still listed for the week's failure, with no current streak.
    await sendTest(b, second);
    expect((await everyRow(admin)).find((r) => r.id === second)).toMatchObject({ failed_deliveries: 1, consecutive_failures: 0 });
  });

  it('refuses members of developer accounts (403 insufficient_role) and a cursor it did not issue', async () => {
    const refused = await a.owner.get('/api/portal/admin/webhooks/failing');
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
    const viewer = await a.addMember('viewer');
    expect((await viewer.client.get('/api/portal/admin/webhooks/failing')).status).toBe(403);
    const badCursor = await admin.get('/api/portal/admin/webhooks/failing?cursor=bm90LWEtY3Vyc29y');
    expect([badCursor.status, badCursor.body.code]).toEqual([400, 'validation_error']);
  });
});
