import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PaymentConfirmationService } from '@gateway/domain/payments';
import { ConfigModule, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig, waitFor } from '@gateway/platform/testing';
import { createHmac, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ProviderWebhooksModule } from './provider-webhooks.module';
import { ProviderWebhooksService } from './provider-webhooks.service';

const TEST_SECRET = 'sk_test_no_provider'; // testConfig's test-mode provider secret

/**
 * The provider's callbacks on a real PostgreSQL: each authentic body is processed once, however
 * often and however concurrently it is delivered. What processing does is stood in for (a count of
 * the confirmation calls); the claim, its release and its takeover are the real table's.
 */
describe('ProviderWebhooksService (claim once)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let webhooks: ProviderWebhooksService;
  let confirmation: PaymentConfirmationService;
  let verified: string[];

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), ProviderWebhooksModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    webhooks = app.get(ProviderWebhooksService);
    confirmation = app.get(PaymentConfirmationService, { strict: false });
  });
  beforeEach(() => {
    verified = [];
    jest.spyOn(confirmation, 'verifyForCallback').mockImplementation(async (_mode, reference) => {
      verified.push(reference);
      return undefined as never;
    });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => app.close());

  const chargeSuccess = (reference = `PAY-${randomUUID().replace(/-/g, '').slice(0, 20)}`) =>
    JSON.stringify({ event: 'charge.success', data: { id: 1, reference, status: 'success', amount: 500000, currency: 'NGN', authorization: {} } });
  const sign = (rawBody: string, secret = TEST_SECRET) => createHmac('sha512', secret).update(rawBody).digest('hex');
  const claimRows = async () => Number((await dataSource.query(`SELECT count(*)::int AS n FROM provider_events`))[0].n);

  it('processes a callback delivered three times once, and answers every delivery', async () => {
    const body = chargeSuccess();
    for (let i = 0; i < 3; i++) await expect(webhooks.receive(body, sign(body))).resolves.toBeUndefined();
    expect(verified).toHaveLength(1);
  });

  it('answers a second identical delivery 503 while the first is being processed, and processes it once', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    jest.spyOn(confirmation, 'verifyForCallback').mockImplementation(async (_mode, reference) => {
      verified.push(reference);
      await finished;
      return undefined as never;
    });
    const body = chargeSuccess();
    const first = webhooks.receive(body, sign(body));
    await waitFor(() => verified.length === 1, { what: 'the verify', timeoutMs: 5_000, intervalMs: 5 });

    await expect(webhooks.receive(body, sign(body))).rejects.toMatchObject({ code: 'service_unavailable' });
    finish();
    await first;
    await expect(webhooks.receive(body, sign(body))).resolves.toBeUndefined();
    expect(verified).toHaveLength(1);
  });

  it('releases the claim when processing fails, so the redelivery is processed', async () => {
    const body = chargeSuccess();
    jest.spyOn(confirmation, 'verifyForCallback').mockRejectedValueOnce(new Error('provider down'));
    await expect(webhooks.receive(body, sign(body))).rejects.toThrow('provider down');

    await webhooks.receive(body, sign(body));
    expect(verified).toHaveLength(1);
  });

  it('takes over a claim left unfinished by an instance that died, once it is stale', async () => {
    let finish!: () => void;
    jest.spyOn(confirmation, 'verifyForCallback').mockImplementationOnce(
      () => new Promise<never>((_resolve, reject) => (finish = () => reject(new Error('instance died')))),
    );
    const body = chargeSuccess();
    const dying = webhooks.receive(body, sign(body));
    await waitFor(() => finish !== undefined, { what: 'the first delivery to be processing', timeoutMs: 5_000, intervalMs: 5 });

    // Still fresh: a redelivery is told to come back later.
    await expect(webhooks.receive(body, sign(body))).rejects.toMatchObject({ code: 'service_unavailable' });
    clock.advance(2 * 60_000 + 1);
    await webhooks.receive(body, sign(body));
    expect(verified).toHaveLength(1);

    // The dead instance's late failure releases nothing: the claim is no longer its own.
    finish();
    await expect(dying).rejects.toThrow('instance died');
    await webhooks.receive(body, sign(body));
    expect(verified).toHaveLength(1);
  });

  it('refuses a body whose signature matches neither mode, and claims nothing', async () => {
    const before = await claimRows();
    const body = chargeSuccess();
    await expect(webhooks.receive(body, sign(body, 'sk_someone_else'))).rejects.toMatchObject({ code: 'invalid_signature' });
    await expect(webhooks.receive(body, undefined)).rejects.toMatchObject({ code: 'invalid_signature' });
    expect(await claimRows()).toBe(before);
    expect(verified).toHaveLength(0);
  });

  it.each([
    ['not JSON', '{"event": "charge.success", "data": '],
    ['an event the gateway does not act on', JSON.stringify({ event: 'subscription.create', data: { id: 7 } })],
    ['a charge without a reference', JSON.stringify({ event: 'charge.success', data: { id: 8, status: 'success' } })],
  ])('acknowledges an authentic body that is %s without acting on it, once', async (_what, body) => {
    await expect(webhooks.receive(body, sign(body))).resolves.toBeUndefined();
    const [row] = await dataSource.query(`SELECT processed_at FROM provider_events WHERE digest = encode(sha256(convert_to($1, 'UTF8')), 'hex')`, [body]);
    expect(row?.processed_at).toBeInstanceOf(Date);
    expect(verified).toHaveLength(0);
  });
});
