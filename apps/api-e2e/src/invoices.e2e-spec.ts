import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import { http, type HttpResult } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, eventsFor, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';
import { WebhookReceiver } from './support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1_000;
const ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

interface LinkResult {
  status: number;
  headers: Headers;
  text: string;
}

describe('invoices', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  /** The customer's browser: no API key, redirects not followed; a link's path is asked of this gateway (its public base URL is not where it listens). */
  const browse = async (url: string): Promise<LinkResult> => {
    const path = url.startsWith('http') ? url.slice(new URL(url).origin.length) : url;
    const response = await fetch(`${h.gateway.baseUrl}${path}`, { redirect: 'manual' });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  async function customerOf(m: TestMerchant): Promise<string> {
    const created = await api(m, 'POST', '/customers', { email: buyer(), name: 'Ada Lovelace' });
    expect(created.status).toBe(201);
    return created.body.data.reference as string;
  }

  /** A draft of `items` for a new customer of `m` (201 asserted). */
  async function draft(m: TestMerchant, items: Array<{ description?: string; quantity: number; unit_price: number }>, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const created = await api(m, 'POST', '/invoices', {
      customer_reference: await customerOf(m),
      due_date: dateIn(7),
      currency: 'NGN',
      line_items: items.map((item, i) => ({ description: `Item ${i + 1}`, ...item })),
      ...extra,
    });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    return created.body.data;
  }

  async function sent(m: TestMerchant, items: Array<{ description?: string; quantity: number; unit_price: number }>): Promise<Record<string, unknown>> {
    const invoice = await draft(m, items);
    const result = await api(m, 'PATCH', `/invoices/${invoice.reference}`, { action: 'send' });
    expect(result.status).toBe(200);
    return result.body.data;
  }

  /**
   * The customer pays `amount` (all that is due when omitted) through the link: the pay form's
   * answer redirects to the gateway's checkout URL of a new payment, which the sandbox completes.
   */
  async function payThroughLink(m: TestMerchant, link: string, amount?: string): Promise<string> {
    const started = await browse(`${link}/pay${amount === undefined ? '' : `?amount=${encodeURIComponent(amount)}`}`);
    expect([started.status, started.text]).toEqual([303, '']);
    const location = started.headers.get('location') as string;
    expect(location).toMatch(/\/checkout\/[^/]+$/);
    const payment = decodeURIComponent(location.split('/').pop() as string);
    const completed = await api(m, 'POST', `/sandbox/payments/${payment}/complete`, { outcome: 'success' });
    expect(completed.body.data.status).toBe('success');
    return payment;
  }

  const expectRefused = (result: HttpResult, status: number, code: string) => expect([result.status, result.body?.code]).toEqual([status, code]);

  beforeAll(async () => {
    // A database of its own: the overdue scan runs as of a later time; one encryption key with the scheduler that delivers events.
    h = await startPaymentsHarness({ ENCRYPTION_KEYS }, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('totals', () => {
    it('3 × 33.33 + 1 × 0.01 is exactly 100.00', async () => {
      const m = await createMerchant(h.gateway);
      const invoice = await draft(m, [
        { quantity: 3, unit_price: 33.33 },
        { quantity: 1, unit_price: 0.01 },
      ]);
      expect(invoice).toMatchObject({
        reference: expect.stringMatching(/^INV_[0-9a-f]{20}$/),
        status: 'draft',
        currency: 'NGN',
        total_amount: 100,
        amount_paid: 0,
        amount_due: 100,
        payment_link: null,
        line_items: [
          { description: 'Item 1', quantity: 3, unit_price: 33.33, amount: 99.99 },
          { description: 'Item 2', quantity: 1, unit_price: 0.01, amount: 0.01 },
        ],
      });
    });

    it('100.10 + 200.20 + 300.30 is exactly 600.60', async () => {
      const m = await createMerchant(h.gateway);
      const invoice = await draft(m, [
        { quantity: 1, unit_price: 100.1 },
        { quantity: 1, unit_price: 200.2 },
        { quantity: 1, unit_price: 300.3 },
      ]);
      expect(invoice.total_amount).toBe(600.6);
      expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data.total_amount).toBe(600.6);
    });

    it('a decimal quantity rounds each line half-up to the cent: 2.5 × 33.33 = 83.33, twice = 166.66', async () => {
      const m = await createMerchant(h.gateway);
      const invoice = await draft(m, [
        { quantity: 2.5, unit_price: 33.33 },
        { quantity: 2.5, unit_price: 33.33 },
      ]);
      expect([invoice.total_amount, (invoice.line_items as Array<{ amount: number }>)[0].amount]).toEqual([166.66, 83.33]);
    });
  });

  describe('validation', () => {
    let m: TestMerchant;
    let customer: string;
    const valid = () => ({ customer_reference: customer, due_date: dateIn(7), currency: 'NGN', line_items: [{ description: 'Design', quantity: 1, unit_price: 150 }] });
    const fieldsOf = async (body: unknown): Promise<string[]> => {
      const result = await api(m, 'POST', '/invoices', body);
      expectRefused(result, 400, 'validation_error');
      return Object.keys(result.body.errors ?? {}).sort();
    };
    const item = (patch: Record<string, unknown>) => ({ ...valid(), line_items: [{ description: 'Design', quantity: 1, unit_price: 150, ...patch }] });

    beforeAll(async () => {
      m = await createMerchant(h.gateway);
      customer = await customerOf(m);
    });

    it.each([
      ['no customer_reference', { customer_reference: undefined }, 'customer_reference'],
      ['no due_date', { due_date: undefined }, 'due_date'],
      ['a malformed due_date', { due_date: '31/12/2026' }, 'due_date'],
      ['a due_date that does not exist', { due_date: '2031-02-30' }, 'due_date'],
      ['a due_date before today', { due_date: dateIn(-1) }, 'due_date'],
      ['no currency', { currency: undefined }, 'currency'],
      ['no line_items', { line_items: undefined }, 'line_items'],
      ['empty line_items', { line_items: [] }, 'line_items'],
      ['101 line_items', { line_items: Array.from({ length: 101 }, () => ({ description: 'x', quantity: 1, unit_price: 150 })) }, 'line_items'],
      ['an unknown field', { memo: 'hello' }, 'memo'],
      ['a total below the NGN minimum', { line_items: [{ description: 'Gum', quantity: 1, unit_price: 99.99 }] }, 'line_items'],
    ])('refuses %s', async (_name, patch, field) => {
      const fields = await fieldsOf({ ...valid(), ...patch });
      expect(fields.some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
    });

    it.each([
      ['an empty description', { description: '' }, 'line_items.0.description'],
      ['a blank description', { description: '   ' }, 'line_items.0.description'],
      ['a description over 200 characters', { description: 'x'.repeat(201) }, 'line_items.0.description'],
      ['a quantity of 0', { quantity: 0 }, 'line_items.0.quantity'],
      ['a negative quantity', { quantity: -1 }, 'line_items.0.quantity'],
      ['a quantity with 5 decimals', { quantity: 1.00001 }, 'line_items.0.quantity'],
      ['a quantity as a string', { quantity: '2' }, 'line_items.0.quantity'],
      ['a quantity over 1,000,000', { quantity: 1_000_001 }, 'line_items.0.quantity'],
      ['a unit_price with 3 decimals', { unit_price: 150.005 }, 'line_items.0.unit_price'],
      ['a unit_price of 0', { unit_price: 0 }, 'line_items.0.unit_price'],
      ['a negative unit_price', { unit_price: -150 }, 'line_items.0.unit_price'],
      ['an unknown field in a line item', { sku: 'A-1' }, 'line_items.0.sku'],
    ])('refuses a line item with %s', async (_name, patch, field) => {
      expect(await fieldsOf(item(patch))).toContain(field);
    });

    it('refuses an unsupported currency (invalid_currency) and an unknown customer (customer_not_found)', async () => {
      expectRefused(await api(m, 'POST', '/invoices', { ...valid(), currency: 'XYZ' }), 400, 'invalid_currency');
      expectRefused(await api(m, 'POST', '/invoices', { ...valid(), customer_reference: 'CUS_nobody' }), 404, 'customer_not_found');
    });

    it('refuses a PATCH with an action and fields, with nothing, or with an unknown action; a bad list filter', async () => {
      const invoice = await draft(m, [{ quantity: 1, unit_price: 150 }]);
      const patch = (body: unknown) => api(m, 'PATCH', `/invoices/${invoice.reference}`, body);
      expectRefused(await patch({ action: 'send', due_date: dateIn(3) }), 400, 'validation_error');
      expectRefused(await patch({}), 400, 'validation_error');
      expectRefused(await patch({ action: 'pay' }), 400, 'validation_error');
      expectRefused(await patch({ line_items: [{ description: 'x', quantity: 0.00001, unit_price: 150 }] }), 400, 'validation_error');
      expectRefused(await api(m, 'GET', '/invoices?status=late'), 400, 'validation_error');
      expectRefused(await api(m, 'GET', '/invoices?due_from=tomorrow'), 400, 'validation_error');
      expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data.status).toBe('draft');
    });
  });

  it('updates a draft (total recomputed), lists with filters, deletes only drafts', async () => {
    const m = await createMerchant(h.gateway);
    const invoice = await draft(m, [{ quantity: 1, unit_price: 150 }]);
    const updated = await api(m, 'PATCH', `/invoices/${invoice.reference}`, { due_date: dateIn(30), line_items: [{ description: 'Hours', quantity: 1.5, unit_price: 200.01 }] });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ status: 'draft', due_date: dateIn(30), total_amount: 300.02, line_items: [{ description: 'Hours', quantity: 1.5, unit_price: 200.01, amount: 300.02 }] });

    const other = await sent(m, [{ quantity: 2, unit_price: 100 }]);
    const refs = async (query: string) => ((await api(m, 'GET', `/invoices${query}`)).body.data as Array<{ reference: string }>).map((i) => i.reference);
    // Newest first; both were created at the same instant of the harness's clock, so as a set here.
    expect((await refs('')).sort()).toEqual([other.reference, invoice.reference].sort());
    expect(await refs('?status=sent')).toEqual([other.reference]);
    expect(await refs(`?customer=${other.customer_reference}`)).toEqual([other.reference]);
    expect(await refs(`?due_from=${dateIn(8)}`)).toEqual([invoice.reference]);
    expect(await refs(`?due_to=${dateIn(7)}`)).toEqual([other.reference]);
    const page = await api(m, 'GET', '/invoices?limit=1');
    expect(page.body.meta).toMatchObject({ has_more: true, limit: 1, next_cursor: expect.any(String) });
    const second = await refs(`?limit=1&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
    expect([...page.body.data.map((i: { reference: string }) => i.reference), ...second].sort()).toEqual([other.reference, invoice.reference].sort());

    const refusedDelete = await api(m, 'DELETE', `/invoices/${other.reference}`);
    expectRefused(refusedDelete, 409, 'invalid_state');
    expect(refusedDelete.body.message).toContain('sent');
    const deleted = await api(m, 'DELETE', `/invoices/${invoice.reference}`);
    expect([deleted.status, deleted.body.data]).toEqual([200, { reference: invoice.reference, deleted: true }]);
    expectRefused(await api(m, 'GET', `/invoices/${invoice.reference}`), 404, 'invoice_not_found');
    expectRefused(await api(m, 'DELETE', `/invoices/${invoice.reference}`), 404, 'invoice_not_found');
  });

  it('send → link → a partial payment → the rest → paid; each event signed and delivered (v1 and v2)', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const scheduler = await startScheduler(schedulerEnvFor(h, { ENCRYPTION_KEYS }));
    try {
      const m = await createMerchant(h.gateway);
      const events = ['invoice.paid', 'invoice.partially_paid', 'invoice.overdue'];
      const v1 = await api(m, 'POST', '/webhooks', { url: `${url}/v1`, events, webhook_version: 'v1' });
      const v2 = await api(m, 'POST', '/webhooks', { url: `${url}/v2`, events, webhook_version: 'v2' });
      expect([v1.status, v2.status]).toEqual([201, 201]);

      const invoice = await sent(m, [
        { description: '<script>alert("x")</script> & design', quantity: 1, unit_price: 100.1 },
        { quantity: 1, unit_price: 200.2 },
        { quantity: 1, unit_price: 300.3 },
      ]);
      expect(invoice).toMatchObject({ status: 'sent', sent_at: expect.any(String), payment_link: expect.stringMatching(/\/checkout\/invoices\/[A-Za-z0-9_-]{32}$/) });
      const link = invoice.payment_link as string;
      expect(link).not.toContain(invoice.reference as string);

      const page = await browse(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.text).toContain('Invoice from Test Merchant');
      expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; design');
      expect(page.text).not.toContain('<script>');
      expect(page.text).toMatch(/id="total">600\.60 NGN/);

      // More than is due is refused before any checkout starts.
      const tooMuch = await browse(`${link}/pay?amount=600.61`);
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.text).toContain('at most 600.60');

      await payThroughLink(m, link, '200.10');
      let current = (await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data;
      expect(current).toMatchObject({ status: 'partially_paid', amount_paid: 200.1, amount_due: 400.5, paid_at: null });
      expect((await browse(link)).text).toMatch(/id="paid">200\.10 NGN/);

      await payThroughLink(m, link);
      current = (await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data;
      expect(current).toMatchObject({ status: 'paid', amount_paid: 600.6, amount_due: 0, paid_at: expect.any(String) });
      expect(await eventsFor(h, 'invoice.partially_paid', invoice.reference as string)).toBe(1);
      expect(await eventsFor(h, 'invoice.paid', invoice.reference as string)).toBe(1);

      const paidPage = await browse(link);
      expect([paidPage.status, paidPage.text.includes('paid in full')]).toEqual([200, true]);
      expect((await browse(`${link}/pay`)).status).toBe(409);

      await receiver.waitFor(4, 30_000);
      const hooks = receiver.received.map((hook) => ({ hook, body: JSON.parse(hook.body) as Record<string, unknown> }));
      const summary = hooks.map(({ hook, body }) => {
        const data = (hook.url.endsWith('/v2') ? body.data : body) as Record<string, unknown>;
        return [hook.url.split('/').pop(), body.event, data.reference, data.status, data.amount_paid];
      });
      expect(summary.sort()).toEqual(
        [
          ['v1', 'invoice.paid', invoice.reference, 'paid', 600.6],
          ['v1', 'invoice.partially_paid', invoice.reference, 'partially_paid', 200.1],
          ['v2', 'invoice.paid', invoice.reference, 'paid', 600.6],
          ['v2', 'invoice.partially_paid', invoice.reference, 'partially_paid', 200.1],
        ].sort(),
      );
      for (const { hook, body } of hooks) {
        const secret = (hook.url.endsWith('/v2') ? v2 : v1).body.data.secret as string;
        expect(verifySignatureHeader(secret, String(hook.headers['x-gateway-signature']), hook.body, Math.floor(Date.now() / 1000))).toBe(true);
        if (hook.url.endsWith('/v2')) expect(body).toMatchObject({ api_version: 'v2', mode: 'test', data: { line_items: expect.any(Array), total_amount: 600.6 } });
        else expect(body).toMatchObject({ mode: 'test', total_amount: 600.6, line_items: expect.any(Array) });
      }
    } finally {
      await scheduler.stop();
      await receiver.close();
    }
  }, 90_000);

  it('overdue on an advanced test clock, once; a partial payment keeps it overdue, the rest makes it paid', async () => {
    const m = await createMerchant(h.gateway);
    const invoice = await sent(m, [{ quantity: 4, unit_price: 250 }]);
    const advance = async (seconds: number) => (await api(m, 'POST', '/sandbox/clock/advance', { seconds })).body.data;
    // Until the end of the due date the invoice is not late; the day after it is, once.
    const dueDayEnd = new Date(`${invoice.due_date}T23:59:59.000Z`).getTime();
    const clock = (await api(m, 'GET', '/sandbox/clock')).body.data;
    expect((await advance(Math.floor((dueDayEnd - new Date(clock.now).getTime()) / 1_000))).rules_run.invoice_overdue).toBe(0);
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data.status).toBe('sent');
    const late = await advance(60);
    expect(late.rules_run.invoice_overdue).toBe(1);
    expect((await advance(DAY_MS / 1_000)).rules_run.invoice_overdue).toBe(0);
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data).toMatchObject({ status: 'overdue', overdue_at: late.now });
    expect(await eventsFor(h, 'invoice.overdue', invoice.reference as string)).toBe(1);

    const link = invoice.payment_link as string;
    await payThroughLink(m, link, '400.00');
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data).toMatchObject({ status: 'overdue', amount_paid: 400, amount_due: 600 });
    await payThroughLink(m, link);
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data).toMatchObject({ status: 'paid', amount_paid: 1000, amount_due: 0 });
    expect(await eventsFor(h, 'invoice.paid', invoice.reference as string)).toBe(1);
    expect(await eventsFor(h, 'invoice.overdue', invoice.reference as string)).toBe(1);
  });

  it('goes overdue once when two advances of the clock run the scan at the same time', async () => {
    const m = await createMerchant(h.gateway);
    const invoices = await Promise.all([sent(m, [{ quantity: 1, unit_price: 300 }]), sent(m, [{ quantity: 2, unit_price: 150 }])]);
    const advances = await Promise.all([0, 1].map(() => api(m, 'POST', '/sandbox/clock/advance', { seconds: (40 * DAY_MS) / 1_000 })));
    expect(advances.map((r) => r.status)).toEqual([200, 200]);
    expect(advances.reduce((sum, r) => sum + (r.body.data.rules_run.invoice_overdue as number), 0)).toBe(2);
    for (const invoice of invoices) {
      expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data.status).toBe('overdue');
      expect(await eventsFor(h, 'invoice.overdue', invoice.reference as string)).toBe(1);
    }
  });

  it('two checkouts of the whole amount started at once both complete: both recorded, paid once, amount_paid above the total', async () => {
    const m = await createMerchant(h.gateway);
    const invoice = await sent(m, [{ quantity: 1, unit_price: 250.5 }]);
    const link = invoice.payment_link as string;
    const [first, second] = await Promise.all([browse(`${link}/pay`), browse(`${link}/pay`)]);
    expect([first.status, second.status]).toEqual([303, 303]);
    for (const started of [first, second]) {
      const payment = decodeURIComponent((started.headers.get('location') as string).split('/').pop() as string);
      expect((await api(m, 'POST', `/sandbox/payments/${payment}/complete`, { outcome: 'success' })).body.data.status).toBe('success');
    }
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data).toMatchObject({ status: 'paid', total_amount: 250.5, amount_paid: 501, amount_due: 0 });
    expect(await eventsFor(h, 'invoice.paid', invoice.reference as string)).toBe(1);
    expect(await eventsFor(h, 'invoice.partially_paid', invoice.reference as string)).toBe(0);
  });

  it('409 naming the status for every forbidden move', async () => {
    const m = await createMerchant(h.gateway);
    const expectConflict = async (method: string, reference: unknown, body: unknown, status: string) => {
      const result = await api(m, method, `/invoices/${reference}`, body);
      expectRefused(result, 409, 'invalid_state');
      expect(result.body.message).toContain(status);
    };
    const sentOne = await sent(m, [{ quantity: 1, unit_price: 500 }]);
    await expectConflict('PATCH', sentOne.reference, { action: 'send' }, 'sent');
    await expectConflict('PATCH', sentOne.reference, { due_date: dateIn(9) }, 'sent');
    await expectConflict('DELETE', sentOne.reference, undefined, 'sent');

    const partial = await sent(m, [{ quantity: 1, unit_price: 500 }]);
    await payThroughLink(m, partial.payment_link as string, '200.00');
    await expectConflict('PATCH', partial.reference, { action: 'cancel' }, 'partially_paid');
    await expectConflict('PATCH', partial.reference, { action: 'send' }, 'partially_paid');

    const paid = await sent(m, [{ quantity: 1, unit_price: 500 }]);
    await payThroughLink(m, paid.payment_link as string);
    for (const action of ['send', 'cancel']) await expectConflict('PATCH', paid.reference, { action }, 'paid');
    await expectConflict('PATCH', paid.reference, { currency: 'NGN' }, 'paid');
    await expectConflict('DELETE', paid.reference, undefined, 'paid');

    const cancelled = await api(m, 'PATCH', `/invoices/${sentOne.reference}`, { action: 'cancel' });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String), payment_link: null });
    for (const action of ['send', 'cancel']) await expectConflict('PATCH', sentOne.reference, { action }, 'cancelled');
    await expectConflict('DELETE', sentOne.reference, undefined, 'cancelled');

    // A draft may be cancelled too, and the cancelled link is closed.
    const draftOne = await draft(m, [{ quantity: 1, unit_price: 500 }]);
    expect((await api(m, 'PATCH', `/invoices/${draftOne.reference}`, { action: 'cancel' })).body.data.status).toBe('cancelled');
    const closed = await browse(sentOne.payment_link as string);
    expect(closed.status).toBe(404);
    expect(closed.text).toContain('not open');
    expect((await browse(`${sentOne.payment_link as string}/pay`)).status).toBe(404);
  });

  it('a send with a due date already past (the draft aged) is refused and the invoice stays a draft', async () => {
    const m = await createMerchant(h.gateway);
    const invoice = await draft(m, [{ quantity: 1, unit_price: 500 }], { due_date: dateIn(0) });
    // The draft was valid when created; two days later on the test clock its due date has passed.
    expect((await api(m, 'POST', '/sandbox/clock/advance', { seconds: (2 * DAY_MS) / 1_000 })).status).toBe(200);
    const result = await api(m, 'PATCH', `/invoices/${invoice.reference}`, { action: 'send' });
    expectRefused(result, 400, 'validation_error');
    expect(result.body.errors.due_date[0]).toContain('must not be before today');
    expect((await api(m, 'GET', `/invoices/${invoice.reference}`)).body.data.status).toBe('draft');
  });

  it("another developer's or the other mode's invoice is not found, everywhere; unknown links answer a 404 page", async () => {
    const owner = await createMerchant(h.gateway, { identityVerified: true });
    const invoice = await sent(owner, [{ quantity: 1, unit_price: 500 }]);
    const stranger = await createMerchant(h.gateway);
    const live = await owner.issueKey({ mode: 'live' });
    for (const m of [stranger, { key: live.key }]) {
      expectRefused(await api(m, 'GET', `/invoices/${invoice.reference}`), 404, 'invoice_not_found');
      expectRefused(await api(m, 'PATCH', `/invoices/${invoice.reference}`, { action: 'cancel' }), 404, 'invoice_not_found');
      expectRefused(await api(m, 'PATCH', `/invoices/${invoice.reference}`, { due_date: dateIn(3) }), 404, 'invoice_not_found');
      expectRefused(await api(m, 'DELETE', `/invoices/${invoice.reference}`), 404, 'invoice_not_found');
      expect((await api(m, 'GET', '/invoices')).body.data).toEqual([]);
    }
    expect((await api(owner, 'GET', `/invoices/${invoice.reference}`)).body.data.status).toBe('sent');
    for (const path of ['/checkout/invoices/unknown-token', '/checkout/invoices/unknown-token/pay?amount=100', `/checkout/invoices/${invoice.reference}`]) {
      const page = await browse(path);
      expect([page.status, page.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
      expect(page.text).toContain('Invoice unavailable');
    }
  });

  it('scopes: invoices:read reads only; invoices:write writes', async () => {
    const m = await createMerchant(h.gateway);
    const invoice = await draft(m, [{ quantity: 1, unit_price: 500 }]);
    const reader = await m.issueKey({ scopes: ['invoices:read'] });
    const writer = await m.issueKey({ scopes: ['invoices:write'] });
    expect((await api(reader, 'GET', `/invoices/${invoice.reference}`)).status).toBe(200);
    expect((await api(reader, 'GET', '/invoices')).status).toBe(200);
    expectRefused(await api(reader, 'PATCH', `/invoices/${invoice.reference}`, { action: 'send' }), 403, 'insufficient_scope');
    expectRefused(await api(reader, 'DELETE', `/invoices/${invoice.reference}`), 403, 'insufficient_scope');
    expectRefused(await api(reader, 'POST', '/invoices', {}), 403, 'insufficient_scope');
    expectRefused(await api(writer, 'GET', '/invoices'), 403, 'insufficient_scope');
    expect((await api(writer, 'PATCH', `/invoices/${invoice.reference}`, { action: 'send' })).status).toBe(200);
  });
});
