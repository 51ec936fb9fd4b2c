/**
 * Browser test of a request's trace page against the REAL API (booted in-process on this run's
 * fresh test database): from the request log to the trace of a test webhook send, which the API
 * makes itself at once (an event, its delivery and the attempt; no scheduler runs here). The four
 * parts of a verify's trace over HTTP are apps/api-e2e's request-trace.e2e-spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';
import { WebhookReceiver } from './support/webhook-receiver';

describe('a request trace in the portal, against the real API', () => {
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

  it('opens the trace of a request from the request log: its entry, no ledger entries, the event with its delivery and attempt', async () => {
    const account = await portal.provision();
    const secret = await createSecretKey(account, 'Trace test');
    const endpoint = await account.owner.post('/api/portal/webhooks', { body: { url: receiverUrl, events: ['payment.success'], webhook_version: 'v2' } });
    expect(endpoint.status).toBe(201);
    const sent = await fetch(`${portal.gateway.baseUrl}/api/v1/webhooks/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_id: endpoint.body.data.id }),
    });
    expect(sent.status).toBe(200);
    const requestId = sent.headers.get('x-request-id') ?? '';
    const eventId = String(receiver.received.at(-1)?.headers['x-gateway-event-id']);

    // The trace is complete once the request log writer has flushed the entry (about every second).
    for (let read = 0; ; read++) {
      const trace = await account.owner.get(`/api/portal/requests/${requestId}`);
      if (trace.status === 200 && trace.body.data.request !== null) break;
      if (read > 75) throw new Error(`request ${requestId} was never logged: ${trace.status} ${trace.text}`);
      await new Promise((done) => setTimeout(done, 200));
    }

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/request-logs', account.ownerEmail, 'Request logs');
    await page.getByRole('table', { name: 'Request logs' }).getByRole('button', { name: `Details of request ${requestId}` }).click();
    await page.getByRole('dialog', { name: 'Request details' }).getByRole('link', { name: 'View trace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Request trace' }).waitFor();
    expect(page.url()).toContain(`#/request-logs/${requestId}`);

    const request = page.getByRole('region', { name: 'Request' });
    await request.getByText('POST /api/v1/webhooks/test').waitFor();
    await request.getByRole('table', { name: 'Request summary' }).getByText(requestId).waitFor();
    await page.getByRole('region', { name: 'Ledger entries' }).getByText('This request moved no money.').waitFor();
    const events = page.getByRole('region', { name: 'Events' });
    await events.getByText('webhook.test', { exact: true }).waitFor();
    await events.getByText(eventId, { exact: false }).waitFor();
    const attempts = events.getByRole('table', { name: `Attempts to deliver webhook.test to ${receiverUrl}` });
    await attempts.getByText('#1 · test').waitFor();
    await attempts.getByText('HTTP 200').waitFor();
    await events.getByText('Delivered').first().waitFor();
    await checkPage(page, 'request-trace');

    // An id that left nothing here: said so, with the way back.
    await page.goto(`${portal.portalUrl}/#/request-logs/req_${randomBytes(16).toString('hex')}`);
    await page.getByRole('heading', { level: 1, name: 'Request not found' }).waitFor();
    await page.getByRole('link', { name: '← All requests' }).click();
    await page.getByRole('heading', { level: 1, name: 'Request logs' }).waitFor();
  });
});
