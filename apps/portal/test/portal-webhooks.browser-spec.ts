/**
 * Browser tests of the webhooks pages against the REAL API (booted in-process on this run's fresh
 * test database), delivering to a receiver on 127.0.0.1 (test mode allows loopback targets in
 * development and test). Test events and manual retries are sent by the API itself at once, so no
 * scheduler runs here. Screenshots (1280 px and 390 px) go to PORTAL_SCREENSHOT_DIR.
 */
import type { Page } from 'playwright-core';
import { type ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';
import { checkPage } from './support/page-checks';
import { openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';
import type { PortalClient } from './support/real-gateway';
import { DataSource } from 'typeorm';

describe('portal webhooks pages in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal);
  let receiver: WebhookReceiver;
  let receiverUrl: string;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
    portal = await startPortalInBrowser();
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
    await receiver?.close();
  });

  beforeEach(() => {
    // The gateway's clock is a manual one: deliveries are signed with its time, the debugger judges them by the browser's.
    portal.gateway.clock.set(new Date());
    receiver.respond = () => 200;
  });

  /** The headers a receiver got, as someone would paste them. */
  function pastedHeaders(hook: ReceivedWebhook): string {
    return `Content-Type: ${String(hook.headers['content-type'])}\nX-Gateway-Signature: ${String(hook.headers['x-gateway-signature'])}\nX-Gateway-Timestamp: ${String(hook.headers['x-gateway-timestamp'])}`;
  }

  async function debug(page: Page, body: string, headers: string, secret: string): Promise<void> {
    await page.getByLabel('Request body').fill(body);
    await page.getByLabel('Request headers').fill(headers);
    await page.getByLabel('Signing secret').fill(secret);
    await page.getByRole('button', { name: 'Check signature' }).click();
  }

  function check(page: Page, title: string) {
    return page.locator(`[data-check="${title}"]`);
  }

  async function endpointVia(client: PortalClient): Promise<string> {
    const created = await client.post('/api/portal/webhooks', { body: { url: receiverUrl, events: ['payment.success'], webhook_version: 'v2' } });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  }

  it('registers an endpoint (secret once), sends a test event, retries a failed delivery, edits, rotates, debugs signatures and deletes', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/webhooks', account.ownerEmail, 'Webhooks');
    await page.getByText('No test endpoints yet').waitFor();

    // Register: URL, one event, v2; the secret is shown once.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add an endpoint' });
    await add.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByText('An http:// or https:// URL').waitFor();
    await add.getByText('Choose at least one event').waitFor();
    await add.getByLabel('Endpoint URL').fill(receiverUrl);
    await add.getByLabel(/^Events/).click();
    await page.getByRole('option', { name: 'payment.success' }).click();
    await add.getByRole('heading', { name: 'Add an endpoint' }).click();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole('button', { name: 'Copy secret' }).waitFor();
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const id = page.url().split('/webhooks/')[1];
    expect(id).toMatch(/^whk_/);
    await page.getByText('No deliveries yet').waitFor();
    const fetched = await account.owner.get(`/api/portal/webhooks/${id}`);
    expect(fetched.body.data).toMatchObject({ url: receiverUrl, events: ['payment.success'], webhook_version: 'v2', mode: 'test' });
    expect(fetched.body.data.secret).toBeUndefined();

    // A test event arrives and appears in the delivery log.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event delivered').first().waitFor();
    await receiver.waitFor(1);
    const first = receiver.received[0];
    expect(first.headers['x-gateway-event']).toBe('webhook.test');
    const logs = page.getByRole('table', { name: 'Delivery logs' });
    await logs.getByRole('row').filter({ hasText: String(first.headers['x-gateway-event-id']) }).getByText('Delivered').waitFor();
    await checkPage(page, 'webhook-detail');

    // A failing delivery (the receiver answers 500) is logged failed, then retried from the log once the receiver is fixed.
    receiver.respond = () => 500;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event failed').first().waitFor();
    await receiver.waitFor(2);
    const failedEventId = String(receiver.received[1].headers['x-gateway-event-id']);
    const failedRow = logs.getByRole('row').filter({ hasText: failedEventId }).filter({ hasText: 'HTTP 500' });
    await failedRow.getByText('Failed', { exact: true }).waitFor();
    await failedRow.getByText('http_status').waitFor();
    receiver.respond = () => 200;
    await failedRow.getByRole('button', { name: /^Retry/ }).click();
    await page.getByText('Retry delivered').first().waitFor();
    await receiver.waitFor(3);
    expect(receiver.received[2].headers['x-gateway-event-id']).toBe(failedEventId);
    await logs.getByRole('row').filter({ hasText: failedEventId }).filter({ hasText: 'manual' }).getByText('Delivered').waitFor();

    // Edit the URL (checked as at registration), the events and the payload version.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit endpoint' });
    const movedUrl = `${receiverUrl}/moved`;
    await edit.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('An http:// or https:// URL').waitFor();
    await edit.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('alert').filter({ hasText: 'The endpoint was not changed' }).waitFor();
    await edit.getByLabel('Endpoint URL').fill(movedUrl);
    await edit.getByLabel(/^Events/).click();
    await page.getByRole('option', { name: 'refund.completed' }).click();
    await edit.getByRole('heading', { name: 'Edit endpoint' }).click();
    await edit.getByText('v1 (flat)').click();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByLabel('Subscribed events').getByText('refund.completed').waitFor();
    const edited = await account.owner.get(`/api/portal/webhooks/${id}`);
    expect(edited.body.data).toMatchObject({ url: movedUrl, events: ['payment.success', 'refund.completed'], webhook_version: 'v1' });
    await page.getByText(movedUrl).first().waitFor();

    // Rotate the secret: a new one, shown once; the previous one keeps signing for a while.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotatedDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const rotated = (await rotatedDialog.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await rotatedDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Previous secret signs until').waitFor();

    // The signature debugger, with the first delivery as the receiver got it.
    await page.goto(`${portal.portalUrl}/#/webhooks/debugger`);
    await page.getByRole('heading', { level: 1, name: 'Signature debugger' }).waitFor();
    await debug(page, first.body, pastedHeaders(first), secret);
    await page.getByRole('status').getByText('Signature valid').waitFor();
    await check(page, 'Digest over the raw body').getByText('Passes').waitFor();
    await checkPage(page, 'webhook-signature-debugger');

    // Wrong secret (the rotated one did not sign this delivery): the digest check fails.
    await debug(page, first.body, pastedHeaders(first), rotated);
    await page.getByRole('status').getByText('Signature invalid').waitFor();
    await page.getByRole('status').getByText(/^Secret or digest mismatch/).waitFor();
    await check(page, 'Digest over the raw body').getByText('Fails').waitFor();
    await check(page, `Timestamp within 300 s`).getByText('Passes').waitFor();

    // Re-indented body: the raw-body check fails, the canonical (sorted keys) one passes.
    await debug(page, JSON.stringify(JSON.parse(first.body), null, 2), pastedHeaders(first), secret);
    await page.getByRole('status').getByText('Valid only for a verifier that re-serialises the payload').waitFor();
    await page.getByRole('status').getByText(/^The body’s bytes changed/).waitFor();
    await check(page, 'Digest over the raw body').getByText('Fails').waitFor();
    await check(page, 'Digest over the canonical body (sorted keys, compact)').getByText('Passes').waitFor();

    // A delivery signed an hour ago: only the timestamp check fails.
    // (Sent by a developer of the account: a session used an hour ago has ended by the clock's "now".)
    const developer = await account.addMember('developer');
    portal.gateway.clock.set(new Date(Date.now() - 3_600_000));
    const old = await developer.client.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    portal.gateway.clock.set(new Date());
    expect(old.body.data.success).toBe(true);
    await receiver.waitFor(4);
    const stale = receiver.received[3];
    await debug(page, stale.body, pastedHeaders(stale), rotated);
    await page.getByRole('status').getByText('Signature invalid').waitFor();
    await page.getByRole('status').getByText(/^Timestamp outside 300 s/).waitFor();
    await check(page, 'Timestamp within 300 s').getByText('Fails').waitFor();
    await check(page, 'Digest over the raw body').getByText('Passes').waitFor();

    // Delete.
    await page.goto(`${portal.portalUrl}/#/webhooks/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete endpoint' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No test endpoints yet').waitFor();
    const gone = await account.owner.get(`/api/portal/webhooks/${id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'webhook_not_found']);
  });

  it('shows a viewer everything read-only (the API refuses the viewer), and another account’s endpoint as not found', async () => {
    const account = await portal.provision();
    const id = await endpointVia(account.owner);
    const tested = await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    expect(tested.body.data.success).toBe(true);
    const viewer = await account.addMember('viewer');

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/webhooks', viewer.email, 'Webhooks');
    const table = page.getByRole('table', { name: 'Webhook endpoints' });
    await table.getByRole('link', { name: receiverUrl }).waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await checkPage(page, 'webhooks');
    await table.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('table', { name: 'Delivery logs' }).getByText('Delivered').waitFor();
    for (const name of ['Send test event', 'Edit', 'Rotate secret', 'Delete', /^Retry/]) expect(await page.getByRole('button', { name }).count()).toBe(0);

    const refused = await viewer.client.post('/api/portal/webhooks', { body: { url: receiverUrl, events: ['payment.success'], webhook_version: 'v1' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
    const retry = await viewer.client.post(`/api/portal/webhooks/logs/${tested.body.data.log_id as string}/retry`);
    expect([retry.status, retry.body.code]).toEqual([403, 'insufficient_role']);
    const rotate = await viewer.client.request('PATCH', `/api/portal/webhooks/${id}`, { body: { rotate_secret: true } });
    expect([rotate.status, rotate.body.code]).toEqual([403, 'insufficient_role']);

    // Another account: the endpoint, its logs and its actions are "not found".
    const other = await portal.provision();
    const otherPage = await newPage();
    await signInTo(otherPage, portal.portalUrl, `#/webhooks/${id}`, other.ownerEmail, 'Endpoint not found');
    for (const [method, path] of [
      ['GET', `/api/portal/webhooks/${id}`],
      ['GET', `/api/portal/webhooks/${id}/logs`],
      ['DELETE', `/api/portal/webhooks/${id}`],
    ]) {
      const answer = await other.owner.request(method, path);
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 'webhook_not_found']);
    }
    const otherTest = await other.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    expect([otherTest.status, otherTest.body.code]).toEqual([404, 'webhook_not_found']);
    const otherRetry = await other.owner.post(`/api/portal/webhooks/logs/${tested.body.data.log_id as string}/retry`);
    expect([otherRetry.status, otherRetry.body.code]).toEqual([404, 'webhook_log_not_found']);
    expect((await other.owner.get('/api/portal/webhooks')).body.data).toEqual([]);
  });

  it('lists failed deliveries on the dashboard, each linked to its endpoint’s delivery log where it is retried; a viewer sees them without retry', async () => {
    const account = await portal.provision();
    const id = await endpointVia(account.owner);
    receiver.respond = () => 503;
    const failed = await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    expect(failed.body.data).toMatchObject({ success: false, status_code: 503 });
    receiver.respond = () => 200;

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/dashboard', account.ownerEmail, 'Dashboard');
    const card = page.getByRole('table', { name: 'Failed webhook deliveries' });
    const row = card.locator(`tr[data-log-id="${failed.body.data.log_id as string}"]`);
    await row.getByText('webhook.test').waitFor();
    await row.getByText('HTTP 503').waitFor();
    await row.getByText('http_status').waitFor();
    await checkPage(page, 'dashboard-failed-deliveries');

    await row.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    expect(page.url()).toContain(`#/webhooks/${id}`);
    const failedRow = page.getByRole('table', { name: 'Delivery logs' }).locator(`tr[data-log-id="${failed.body.data.log_id as string}"]`);
    await failedRow.getByRole('button', { name: /^Retry/ }).click();
    await page.getByText('Retry delivered').first().waitFor();

    // A viewer sees the card (the failed attempt stays in the log), and no retry on the endpoint's page.
    const viewer = await account.addMember('viewer');
    const viewerPage = await newPage();
    await signInTo(viewerPage, portal.portalUrl, '#/dashboard', viewer.email, 'Dashboard');
    await viewerPage.getByRole('table', { name: 'Failed webhook deliveries' }).getByRole('link', { name: receiverUrl }).click();
    await viewerPage.getByRole('table', { name: 'Delivery logs' }).getByText('Failed', { exact: true }).waitFor();
    expect(await viewerPage.getByRole('button', { name: /^Retry/ }).count()).toBe(0);

    // An account without failures says so.
    const other = await portal.provision();
    const otherPage = await newPage();
    await signInTo(otherPage, portal.portalUrl, '#/dashboard', other.ownerEmail, 'Dashboard');
    await otherPage.getByText('No failed test deliveries').waitFor();
  }, 180_000);

  it('shows a disabled endpoint’s health; Enable brings it back and “Replay failed since…” queues its failed deliveries', async () => {
    const account = await portal.provision();
    const id = await endpointVia(account.owner);
    receiver.respond = () => 500;
    const failedTest = await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    expect(failedTest.body.data).toMatchObject({ success: false, status_code: 500 });
    receiver.respond = () => 200;
    // What the scheduler's scan leaves after a long run of failures (no scheduler runs here): two
    // payment.success deliveries that ended failed, the endpoint disabled with its run on record.
    const db = portal.gateway.app.get(DataSource);
    const failedAt = new Date(portal.gateway.clock.now().getTime() - 3 * 86_400_000);
    const [endpoint] = (await db.query(`SELECT id, developer_id FROM webhook_endpoints WHERE reference = $1`, [id])) as Array<{ id: string; developer_id: string }>;
    const events = (await db.query(
      `INSERT INTO events (id, developer_id, mode, name, data, created_at)
       SELECT 'evt_portal' || substr(md5(random()::text || g), 1, 20), $1, 'test', 'payment.success', '{}'::jsonb, $2::timestamptz + g * interval '1 minute' FROM generate_series(1, 2) g
       RETURNING id, created_at`,
      [endpoint.developer_id, failedAt],
    )) as Array<{ id: string; created_at: Date }>;
    for (const event of events) {
      await db.query(
        `INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, completed_at) VALUES ($1, 'test', $2, $3, 'failed', 6, $4, $4, $4)`,
        [endpoint.developer_id, endpoint.id, event.id, event.created_at],
      );
    }
    await db.query(
      `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = $2, disabled_reason = 'consecutive_failures', consecutive_failed_deliveries = 20, failing_since = $3 WHERE id = $1`,
      [endpoint.id, portal.gateway.clock.now(), failedAt],
    );

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/webhooks', account.ownerEmail, 'Webhooks');
    const table = page.getByRole('table', { name: 'Webhook endpoints' });
    await table.getByRole('row').filter({ hasText: id }).getByText('Disabled').waitFor();
    await table.getByRole('row').filter({ hasText: id }).getByText('20 failed in a row').waitFor();
    await table.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const stopped = page.getByRole('alert').filter({ hasText: 'Deliveries to this endpoint are stopped' });
    await stopped.getByText(/after 20 deliveries in a row failed/).waitFor();
    const health = page.getByRole('region', { name: 'Endpoint health' });
    await health.getByTestId('health-success-rate').getByText('0 % of 1 attempt').waitFor();
    await health.getByTestId('health-last-failure').getByText(/http_status \(HTTP 500\)/).waitFor();
    expect(await page.getByRole('button', { name: 'Replay failed since…' }).isDisabled()).toBe(true);
    await checkPage(page, 'webhook-disabled');

    // Enable: a fresh run; the replay dialog opens from the run's first failure.
    await stopped.getByRole('button', { name: 'Enable endpoint' }).click();
    await page.getByText('Endpoint enabled').first().waitFor();
    const dialog = page.getByRole('dialog', { name: 'Replay failed deliveries' });
    const since = dialog.getByLabel('Failed since');
    expect(new Date(await since.inputValue()).getTime()).toBeLessThanOrEqual(failedAt.getTime());
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('2 failed deliveries queued').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Enabled, but its last attempt failed (the replayed ones are sent by the scheduler).
    await page.getByRole('region', { name: 'Endpoint health' }).getByTestId('endpoint-status').getByText('Failing').waitFor();
    const queued = (await db.query(`SELECT status, replay_requested_at IS NOT NULL AS marked FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = ANY ($2::text[])`, [
      endpoint.id,
      events.map((e) => e.id),
    ])) as Array<{ status: string; marked: boolean }>;
    expect(queued).toEqual([
      { status: 'pending', marked: true },
      { status: 'pending', marked: true },
    ]);
    expect(await stopped.count()).toBe(0);

    // A time in the future is refused by the form before anything is sent.
    await page.getByRole('button', { name: 'Replay failed since…' }).click();
    await dialog.getByLabel('Failed since').fill('2999-01-01T00:00');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await dialog.getByText('Must be in the past').waitFor();
  }, 180_000);
});
