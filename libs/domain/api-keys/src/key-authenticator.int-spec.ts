import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { createDomainTestContext, waitFor } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { ApiKeysModule } from './api-keys.module';
import { ApiKeysService } from './api-keys.service';
import { KeyAuthenticator } from './key-authenticator';

/**
 * The key cache is only as good as the connection that hears about changes: it serves keys from
 * memory while that connection listens, and reads every key from the database while it does not.
 */
describe('KeyAuthenticator', () => {
  let app: INestApplicationContext;
  let db: DataSource;
  let authenticator: KeyAuthenticator;
  let developerId: string;
  const session = `gateway-access-changes:${process.pid}`;
  const listeningSessions = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [session]))[0].n as number;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, ApiKeysModule]));
    db = app.get(DataSource);
    authenticator = app.get(KeyAuthenticator);
    developerId = (await app.get(DevelopersService).create({ email: 'key-cache-int@example.com', name: 'Key cache' })).id;
  });
  afterAll(() => app.close());

  it('stops serving cached keys the moment its listening connection is lost, and reads them from the database', async () => {
    const issued = await app.get(ApiKeysService).issue({ developerId, mode: 'test', kind: 'secret' });
    const revokeUnheard = (id: string, revoked: boolean) =>
      db.query(`UPDATE api_keys SET revoked_at = ${revoked ? 'now()' : 'NULL'} WHERE id = $1`, [id]);

    // Revoked behind the cache's back (no notification, as if it had been lost): the cached key still answers.
    // The connection may not listen yet, and the issue's own notification may arrive after the first
    // lookup and clear what it cached: both make a lookup read the database, so try until one is cached.
    await waitFor(
      async () => {
        expect((await authenticator.lookup(issued.secret))?.keyId).toBe(issued.key.id);
        await revokeUnheard(issued.key.id, true);
        if ((await authenticator.lookup(issued.secret))?.keyId === issued.key.id) return true;
        await revokeUnheard(issued.key.id, false);
        return false;
      },
      { what: 'the key to be served from the cache', timeoutMs: 5_000, intervalMs: 25 },
    );
    expect(await listeningSessions()).toBe(1);

    // Its listening connection ends: from then on every lookup reads the database, which knows the key is revoked.
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [session]);
    await waitFor(async () => (await authenticator.lookup(issued.secret)) === null, { what: 'the revoked key to be refused', timeoutMs: 2_000, intervalMs: 25 });
    // Nor is what it reads meanwhile kept: a key read and then revoked unheard is refused at once.
    const other = await app.get(ApiKeysService).issue({ developerId, mode: 'test', kind: 'secret' });
    expect((await authenticator.lookup(other.secret))?.keyId).toBe(other.key.id);
    await db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [other.key.id]);
    expect(await authenticator.lookup(other.secret)).toBeNull();

    // It listens again on a new connection (after a second's backoff), and the key stays refused.
    await waitFor(async () => (await listeningSessions()) === 1, { what: 'listening again', timeoutMs: 5_000, intervalMs: 25 });
    expect(await authenticator.lookup(issued.secret)).toBeNull();
  });
});
