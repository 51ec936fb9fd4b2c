import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { type DeveloperContext, type ManualClock, sha256Hex } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { ApiKeysModule } from './api-keys.module';
import { ApiKeysService } from './api-keys.service';
import { IpAllowlistService } from './ip-allowlist.service';

describe('ApiKeysService: get, scopes and rotation (portal)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let keys: ApiKeysService;
  let test: DeveloperContext;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([DevelopersModule, ApiKeysModule]));
    keys = app.get(ApiKeysService);
    const developerId = (await app.get(DevelopersService).create({ email: 'rotation-int@example.com', name: 'Rotation' })).id;
    test = { developerId, mode: 'test' };
  });
  afterAll(() => app.close());

  it('finds a key only within its developer and mode', async () => {
    const issued = await keys.issue({ ...test, kind: 'secret' });
    expect((await keys.get(test, issued.key.id)).id).toBe(issued.key.id);
    await expect(keys.get({ ...test, mode: 'live' }, issued.key.id)).rejects.toMatchObject({ code: 'api_key_not_found' });
    await expect(keys.get({ developerId: '00000000-0000-4000-8000-000000000000', mode: 'test' }, issued.key.id)).rejects.toMatchObject({ code: 'api_key_not_found' });
    await expect(keys.get(test, 'not-a-uuid')).rejects.toMatchObject({ code: 'api_key_not_found' });
  });

  it('replaces scopes, refusing unknown ones and revoked keys', async () => {
    const issued = await keys.issue({ ...test, kind: 'secret', scopes: ['payments:read'] });
    expect((await keys.setScopes(test, issued.key.id, ['customers:read', 'customers:read'])).scopes).toEqual(['customers:read']);
    await expect(keys.setScopes(test, issued.key.id, ['customers:delete'])).rejects.toMatchObject({ code: 'validation_error' });
    await keys.revoke(test.developerId, issued.key.id);
    await expect(keys.setScopes(test, issued.key.id, [])).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('rotation without overlap revokes the old key at once and keeps kind, name and scopes', async () => {
    const old = await keys.issue({ ...test, kind: 'secret', name: 'server', scopes: ['customers:write'] });
    const rotated = await keys.rotate(test, old.key.id);
    expect(rotated.key).toMatchObject({ kind: 'secret', name: 'server', scopes: ['customers:write'], mode: 'test' });
    expect(rotated.secret).toMatch(/^sk_test_/);
    expect(await keys.findUsable(sha256Hex(old.secret))).toBeNull();
    expect(await keys.findUsable(sha256Hex(rotated.secret))).not.toBeNull();
    await expect(keys.rotate(test, old.key.id)).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('rotation with an overlap keeps both keys until the overlap ends', async () => {
    const old = await keys.issue({ ...test, kind: 'secret' });
    const rotated = await keys.rotate(test, old.key.id, 2 * 3_600_000);
    clock.advance(2 * 3_600_000 - 1);
    expect(await keys.findUsable(sha256Hex(old.secret))).not.toBeNull();
    clock.advance(1);
    expect(await keys.findUsable(sha256Hex(old.secret))).toBeNull();
    expect(await keys.findUsable(sha256Hex(rotated.secret))).not.toBeNull();
  });

  it('an overlap never extends a key that expires sooner', async () => {
    const soon = new Date(clock.now().getTime() + 60_000);
    const old = await keys.issue({ ...test, kind: 'secret', expiresAt: soon });
    const rotated = await keys.rotate(test, old.key.id, 24 * 3_600_000);
    expect(rotated.previous.expiresAt?.getTime()).toBe(soon.getTime());
  });

  it('the successor of a key limited to some addresses is limited to the same ones', async () => {
    const allowlist = app.get(IpAllowlistService);
    const old = await keys.issue({ ...test, kind: 'secret' });
    await allowlist.add(test.developerId, '203.0.113.0/24', old.key.id, 'office');
    const rotated = await keys.rotate(test, old.key.id, 3_600_000);
    const entries = await allowlist.list(test.developerId);
    expect(entries.filter((e) => e.apiKeyId === rotated.key.id)).toEqual([expect.objectContaining({ cidr: '203.0.113.0/24', label: 'office' })]);
    expect(entries.filter((e) => e.apiKeyId === old.key.id)).toHaveLength(1);
  });
});
