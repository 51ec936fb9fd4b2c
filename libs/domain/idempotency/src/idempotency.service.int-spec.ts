import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { requestFingerprint } from './request-fingerprint';
import { IdempotencyModule } from './idempotency.module';
import { type ClaimOutcome, type IdempotencyClaim, type IdempotentRequest, IdempotencyService } from './idempotency.service';

const LOCK_TIMEOUT_SECONDS = 60;

describe('IdempotencyService', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let idempotency: IdempotencyService;
  let dataSource: DataSource;
  let tenant: DeveloperContext;
  let otherTenant: DeveloperContext;
  let keyCounter = 0;

  beforeAll(async () => {
    const config = ConfigModule.forRoot(testConfig({ IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: String(LOCK_TIMEOUT_SECONDS) }));
    ({ app, clock } = await createDomainTestContext([config, DevelopersModule, IdempotencyModule]));
    idempotency = app.get(IdempotencyService);
    dataSource = app.get(DataSource);
    const developers = app.get(DevelopersService);
    tenant = { developerId: (await developers.create({ email: 'idem-int@example.com', name: 'Idem' })).id, mode: 'test' };
    otherTenant = { developerId: (await developers.create({ email: 'idem-other@example.com', name: 'Other' })).id, mode: 'test' };
  });
  afterAll(() => app.close());

  /** A request on POST /api/v1/customers with a fresh key (unless one is given). */
  function request(body: unknown = { email: 'a@example.com' }, overrides: Partial<IdempotentRequest> = {}): IdempotentRequest {
    keyCounter += 1;
    return { method: 'POST', route: '/api/v1/customers', key: `key-${keyCounter}`, requestHash: requestFingerprint(body), ...overrides };
  }

  async function claimed(outcome: Promise<ClaimOutcome>): Promise<IdempotencyClaim> {
    const result = await outcome;
    if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${result.kind}`);
    return result.claim;
  }

  async function rowCount(developerId: string): Promise<number> {
    const [{ count }] = (await dataSource.query('SELECT count(*)::int AS count FROM idempotency_keys WHERE developer_id = $1', [developerId])) as Array<{ count: number }>;
    return count;
  }

  it('lets exactly one of 20 concurrent claims of the same key win; the others are told it is in progress', async () => {
    const req = request();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => idempotency.claim(tenant, req)));
    const winners = results.filter((r) => r.status === 'fulfilled' && r.value.kind === 'claimed');
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as { code?: string });
    expect(winners).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(new Set(refused.map((e) => e.code))).toEqual(new Set(['idempotency_key_in_progress']));
  });

  it('replays the stored status and body text exactly once the first request completed', async () => {
    const req = request();
    const claim = await claimed(idempotency.claim(tenant, req));
    const body = '{"success":true,"data":{"reference":"CUS_1","name":"Zoë \\u00e9"}}';
    expect(await idempotency.complete(claim, { status: 201, body })).toBe(true);

    expect(await idempotency.claim(tenant, req)).toEqual({ kind: 'replay', response: { status: 201, body } });
  });

  it('refuses the same key with a different request hash, while in progress and after completion', async () => {
    const req = request({ email: 'first@example.com' });
    const different = { ...req, requestHash: requestFingerprint({ email: 'second@example.com' }) };
    const claim = await claimed(idempotency.claim(tenant, req));
    await expect(idempotency.claim(tenant, different)).rejects.toMatchObject({ code: 'idempotency_key_reused' });

    await idempotency.complete(claim, { status: 201, body: '{}' });
    await expect(idempotency.claim(tenant, different)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('frees a released key so the next request with it runs again', async () => {
    const req = request();
    const first = await claimed(idempotency.claim(tenant, req));
    await idempotency.release(first);
    const second = await claimed(idempotency.claim(tenant, req));
    expect(second.token).not.toBe(first.token);
  });

  it('keeps a claim until the lock timeout, then lets one retry take over an abandoned claim', async () => {
    const req = request();
    const abandoned = await claimed(idempotency.claim(tenant, req));

    clock.advance(LOCK_TIMEOUT_SECONDS * 1000 - 1);
    await expect(idempotency.claim(tenant, req)).rejects.toMatchObject({ code: 'idempotency_key_in_progress' });

    clock.advance(1);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => idempotency.claim(tenant, req)));
    const takeovers = results.filter((r) => r.status === 'fulfilled' && r.value.kind === 'claimed') as Array<PromiseFulfilledResult<{ kind: 'claimed'; claim: IdempotencyClaim }>>;
    expect(takeovers).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(9);
    const takeover = takeovers[0].value.claim;
    expect(takeover.id).toBe(abandoned.id);

    // The crashed request, should it wake up, can no longer finish or free the key.
    expect(await idempotency.complete(abandoned, { status: 201, body: '"stale"' })).toBe(false);
    await idempotency.release(abandoned);
    await expect(idempotency.claim(tenant, req)).rejects.toMatchObject({ code: 'idempotency_key_in_progress' });

    expect(await idempotency.complete(takeover, { status: 201, body: '"fresh"' })).toBe(true);
    expect(await idempotency.claim(tenant, req)).toEqual({ kind: 'replay', response: { status: 201, body: '"fresh"' } });
  });

  it('does not let an abandoned claim be taken over with a different request', async () => {
    const req = request({ email: 'one@example.com' });
    await claimed(idempotency.claim(tenant, req));
    clock.advance(LOCK_TIMEOUT_SECONDS * 1000);
    await expect(idempotency.claim(tenant, { ...req, requestHash: requestFingerprint({ email: 'two@example.com' }) })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('scopes a key to developer, mode, method and route: the same key elsewhere is independent', async () => {
    const req = request();
    await claimed(idempotency.claim(tenant, req));
    await claimed(idempotency.claim(otherTenant, req));
    await claimed(idempotency.claim({ ...tenant, mode: 'live' }, req));
    await claimed(idempotency.claim(tenant, { ...req, route: '/api/v1/refunds' }));
    await claimed(idempotency.claim(tenant, { ...req, method: 'DELETE' }));
    await expect(idempotency.claim(tenant, req)).rejects.toMatchObject({ code: 'idempotency_key_in_progress' });
  });

  it('does not let a claim handle for one tenant complete another tenant’s row', async () => {
    const req = request();
    const claim = await claimed(idempotency.claim(tenant, req));
    const forged: IdempotencyClaim = { ...claim, ctx: otherTenant };
    expect(await idempotency.complete(forged, { status: 201, body: '{}' })).toBe(false);
    await expect(idempotency.claim(tenant, req)).rejects.toMatchObject({ code: 'idempotency_key_in_progress' });
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a newline', 'abc\ndef'],
    ['a non-ASCII character', 'clé'],
  ])('refuses a key that is %s with validation_error', async (_label, key) => {
    await expect(idempotency.claim(tenant, request(undefined, { key }))).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('accepts a key of exactly 255 printable characters, spaces included', async () => {
    await claimed(idempotency.claim(tenant, request(undefined, { key: `${' ~'.repeat(127)}!` })));
  });

  describe('purgeOlderThan', () => {
    let purgeTenant: DeveloperContext;
    const now = new Date('2021-06-02T12:00:00Z');

    beforeAll(async () => {
      purgeTenant = { developerId: (await app.get(DevelopersService).create({ email: 'idem-purge@example.com', name: 'Purge' })).id, mode: 'live' };
    });

    async function claimAt(at: Date, key: string, complete: boolean): Promise<void> {
      clock.set(at);
      const claim = await claimed(idempotency.claim(purgeTenant, request(undefined, { key })));
      if (complete) await idempotency.complete(claim, { status: 201, body: '{}' });
    }

    it('deletes keys claimed before the cutoff and keeps younger ones, completed or not', async () => {
      const saved = clock.now();
      const retentionMs = 24 * 3600 * 1000;
      await claimAt(new Date(now.getTime() - retentionMs - 1), 'old-completed', true);
      await claimAt(new Date(now.getTime() - 2 * retentionMs), 'old-in-progress', false);
      await claimAt(new Date(now.getTime() - retentionMs), 'exactly-at-cutoff', true);
      await claimAt(new Date(now.getTime() - retentionMs + 1), 'young', true);
      clock.set(saved);

      const deleted = await idempotency.purgeOlderThan(new Date(now.getTime() - retentionMs));

      expect(deleted).toBe(2);
      const remaining = (await dataSource.query('SELECT key FROM idempotency_keys WHERE developer_id = $1 ORDER BY key', [purgeTenant.developerId])) as Array<{ key: string }>;
      expect(remaining.map((r) => r.key)).toEqual(['exactly-at-cutoff', 'young']);
      expect(await rowCount(tenant.developerId)).toBeGreaterThan(0);
    });

    it('deletes each old row exactly once when several purges run at the same time', async () => {
      const saved = clock.now();
      for (let i = 0; i < 30; i++) await claimAt(new Date(now.getTime() - 48 * 3600 * 1000 - i), `concurrent-${i}`, i % 2 === 0);
      clock.set(saved);

      const counts = await Promise.all(Array.from({ length: 4 }, () => idempotency.purgeOlderThan(new Date(now.getTime() - 24 * 3600 * 1000))));

      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      expect(await rowCount(purgeTenant.developerId)).toBe(2);
    });
  });
});
