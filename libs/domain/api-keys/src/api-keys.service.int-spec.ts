import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { DomainError, type ManualClock, sha256Hex } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { ApiKeysModule } from './api-keys.module';
import { ApiKeysService } from './api-keys.service';

describe('ApiKeysService', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let keys: ApiKeysService;
  let developerId: string;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([DevelopersModule, ApiKeysModule]));
    keys = app.get(ApiKeysService);
    developerId = (await app.get(DevelopersService).create({ email: 'keys-int@example.com', name: 'Keys' })).id;
  });
  afterAll(() => app.close());

  it('stores only the SHA-256 of an issued key and finds it by that hash', async () => {
    const issued = await keys.issue({ developerId, mode: 'test', kind: 'secret' });
    expect(issued.key.keyHash).toBe(sha256Hex(issued.secret));
    expect(issued.key.keyHint).toBe(`sk_test_…${issued.secret.slice(-4)}`);
    expect((await keys.findUsable(sha256Hex(issued.secret)))?.id).toBe(issued.key.id);
  });

  it('no longer finds a revoked key', async () => {
    const issued = await keys.issue({ developerId, mode: 'live', kind: 'secret' });
    await keys.revoke(developerId, issued.key.id);
    expect(await keys.findUsable(sha256Hex(issued.secret))).toBeNull();
  });

  it('no longer finds a key once it has expired', async () => {
    const issued = await keys.issue({ developerId, mode: 'test', kind: 'secret', expiresAt: new Date(clock.now().getTime() + 60_000) });
    expect(await keys.findUsable(sha256Hex(issued.secret))).not.toBeNull();
    clock.advance(60_001);
    expect(await keys.findUsable(sha256Hex(issued.secret))).toBeNull();
  });

  it("refuses to revoke another developer's key as if it did not exist", async () => {
    const other = (await app.get(DevelopersService).create({ email: 'other-keys@example.com', name: 'Other' })).id;
    const issued = await keys.issue({ developerId: other, mode: 'test', kind: 'secret' });
    await expect(keys.revoke(developerId, issued.key.id)).rejects.toMatchObject({ code: 'api_key_not_found' });
  });

  it('refuses unknown scopes', async () => {
    await expect(keys.issue({ developerId, mode: 'test', kind: 'secret', scopes: ['payments:read', 'nope'] })).rejects.toBeInstanceOf(DomainError);
  });
});
