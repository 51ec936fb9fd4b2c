import { type TestGateway, startGateway } from './support/gateway';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

describe('portal roles and account isolation', () => {
  let gateway: TestGateway;
  let admin: PortalClient;
  let a: PortalAccount;
  let b: PortalAccount;

  beforeAll(async () => {
    gateway = await startGateway();
    admin = (await signedInPlatformUser(gateway)).client;
    a = await provisionAccount(gateway, admin);
    b = await provisionAccount(gateway, admin);
  });
  afterAll(() => gateway.close());

  describe('within an account', () => {
    it('a viewer reads keys and the team but cannot create keys, allowlist entries or invitations', async () => {
      const viewer = (await a.addMember('viewer')).client;
      expect((await viewer.get('/api/portal/keys')).status).toBe(200);
      expect((await viewer.get('/api/portal/team/members')).status).toBe(200);
      const create = await viewer.post('/api/portal/keys', { body: { name: 'nope' } });
      expect(create.status).toBe(403);
      expect(create.body).toEqual({ success: false, code: 'insufficient_role', message: 'Your role (viewer) does not allow this.' });
      expect((await viewer.post('/api/portal/ip-allowlist', { body: { cidr: '10.0.0.0/8' } })).status).toBe(403);
      expect((await viewer.post('/api/portal/team/invitations', { body: { email: 'v@example.com', role: 'viewer' } })).status).toBe(403);
    });

    it("a viewer cannot rotate, re-scope or revoke a key, remove an allowlist entry or withdraw an invitation", async () => {
      const viewer = (await a.addMember('viewer')).client;
      const key = (await a.owner.post('/api/portal/keys', { body: { name: 'kept' } })).body.data.key.id as string;
      const entry = (await a.owner.post('/api/portal/ip-allowlist', { body: { cidr: '198.51.100.0/24' } })).body.data.id as string;
      const invitation = (await a.owner.post('/api/portal/team/invitations', { body: { email: 'kept-invitee@example.com', role: 'viewer' } })).body.data.id as string;
      for (const attempt of [
        viewer.post(`/api/portal/keys/${key}/rotate`, { body: {} }),
        viewer.put(`/api/portal/keys/${key}/scopes`, { body: { scopes: ['customers:read'] } }),
        viewer.delete(`/api/portal/keys/${key}`),
        viewer.delete(`/api/portal/ip-allowlist/${entry}`),
        viewer.delete(`/api/portal/team/invitations/${invitation}`),
      ]) {
        const result = await attempt;
        expect(result.status).toBe(403);
        expect(result.body.code).toBe('insufficient_role');
      }
      const kept = (await a.owner.get('/api/portal/keys')).body.data.find((k: { id: string }) => k.id === key);
      expect(kept).toMatchObject({ status: 'active', scopes: [] });
      expect((await a.owner.get('/api/portal/ip-allowlist')).body.data.map((e: { id: string }) => e.id)).toContain(entry);
      await a.owner.delete(`/api/portal/ip-allowlist/${entry}`);
    });

    it('a developer manages keys but not the team', async () => {
      const developer = await a.addMember('developer');
      const key = await developer.client.post('/api/portal/keys', { body: { name: 'ci', scopes: ['customers:read'] } });
      expect(key.status).toBe(201);
      expect((await developer.client.delete(`/api/portal/keys/${key.body.data.key.id}`)).status).toBe(200);
      expect((await developer.client.get('/api/portal/team/invitations')).status).toBe(403);
      expect((await developer.client.post('/api/portal/team/invitations', { body: { email: 'd@example.com', role: 'viewer' } })).status).toBe(403);
      expect((await developer.client.put(`/api/portal/team/members/${developer.userId}/role`, { body: { role: 'admin' } })).status).toBe(403);
      expect((await developer.client.delete(`/api/portal/team/members/${a.ownerId}`)).status).toBe(403);
    });

    it('an admin manages the team except owners', async () => {
      const teamAdmin = await a.addMember('admin');
      const viewer = await a.addMember('viewer');
      const promoted = await teamAdmin.client.put(`/api/portal/team/members/${viewer.userId}/role`, { body: { role: 'developer' } });
      expect(promoted.status).toBe(200);
      expect(promoted.body.data).toMatchObject({ user_id: viewer.userId, role: 'developer' });
      expect((await teamAdmin.client.put(`/api/portal/team/members/${viewer.userId}/role`, { body: { role: 'owner' } })).body.code).toBe('insufficient_role');
      expect((await teamAdmin.client.post('/api/portal/team/invitations', { body: { email: 'new-owner@example.com', role: 'owner' } })).status).toBe(403);
      expect((await teamAdmin.client.delete(`/api/portal/team/members/${a.ownerId}`)).status).toBe(403);

      expect((await teamAdmin.client.delete(`/api/portal/team/members/${viewer.userId}`)).status).toBe(204);
      expect((await viewer.client.get('/api/portal/me')).status).toBe(401);
    });

    it('the last owner can be neither demoted nor removed; with a second owner they can', async () => {
      const demote = await a.owner.put(`/api/portal/team/members/${a.ownerId}/role`, { body: { role: 'admin' } });
      expect(demote.status).toBe(409);
      expect(demote.body.code).toBe('last_owner');
      expect((await a.owner.delete(`/api/portal/team/members/${a.ownerId}`)).body.code).toBe('last_owner');

      const second = await a.addMember('owner');
      expect((await second.client.put(`/api/portal/team/members/${a.ownerId}/role`, { body: { role: 'admin' } })).status).toBe(200);
      expect((await second.client.put(`/api/portal/team/members/${second.userId}/role`, { body: { role: 'admin' } })).body.code).toBe('last_owner');
    });
  });

  describe('between accounts: another account is answered as not found', () => {
    it("keys of account B cannot be revoked, rotated or re-scoped from account A", async () => {
      const bKey = (await b.owner.post('/api/portal/keys', { body: { name: 'b' } })).body.data.key.id as string;
      for (const attempt of [
        a.owner.delete(`/api/portal/keys/${bKey}`),
        a.owner.post(`/api/portal/keys/${bKey}/rotate`, { body: {} }),
        a.owner.put(`/api/portal/keys/${bKey}/scopes`, { body: { scopes: [] } }),
      ]) {
        const result = await attempt;
        expect(result.status).toBe(404);
        expect(result.body.code).toBe('api_key_not_found');
      }
      expect((await a.owner.get('/api/portal/keys')).body.data.map((k: { id: string }) => k.id)).not.toContain(bKey);
      expect((await b.owner.get('/api/portal/keys')).body.data.find((k: { id: string }) => k.id === bKey).status).toBe('active');
    });

    it("members of account B cannot be re-roled or removed from account A", async () => {
      for (const attempt of [
        a.owner.put(`/api/portal/team/members/${b.ownerId}/role`, { body: { role: 'viewer' } }),
        a.owner.delete(`/api/portal/team/members/${b.ownerId}`),
      ]) {
        const result = await attempt;
        expect(result.status).toBe(404);
        expect(result.body.code).toBe('user_not_found');
      }
      expect((await a.owner.get('/api/portal/team/members')).body.data.map((m: { user_id: string }) => m.user_id)).not.toContain(b.ownerId);
    });

    it("allowlist entries and invitations of account B are invisible to account A", async () => {
      const entry = await b.owner.post('/api/portal/ip-allowlist', { body: { cidr: '198.51.100.0/24' } });
      expect(entry.status).toBe(201);
      expect((await a.owner.delete(`/api/portal/ip-allowlist/${entry.body.data.id}`)).status).toBe(404);
      expect((await a.owner.get('/api/portal/ip-allowlist')).body.data).toEqual([]);

      const bKey = (await b.owner.post('/api/portal/keys', { body: {} })).body.data.key.id as string;
      expect((await a.owner.post('/api/portal/ip-allowlist', { body: { cidr: '10.0.0.1', api_key_id: bKey } })).body.code).toBe('api_key_not_found');

      const invitation = await b.owner.post('/api/portal/team/invitations', { body: { email: 'b-invitee@example.com', role: 'viewer' } });
      expect((await a.owner.delete(`/api/portal/team/invitations/${invitation.body.data.id}`)).status).toBe(404);
      expect((await a.owner.get('/api/portal/team/invitations')).body.data.map((i: { id: string }) => i.id)).not.toContain(invitation.body.data.id);
    });
  });

  describe('platform administration', () => {
    it('refuses account members, even owners', async () => {
      for (const attempt of [
        a.owner.post('/api/portal/admin/developers', { body: { email: 'sneaky@example.com', name: 'Sneaky' } }),
        a.owner.post(`/api/portal/admin/developers/${a.developerId}/verify-identity`),
        a.owner.put(`/api/portal/admin/developers/${a.developerId}/fees/NGN`, { body: { amount: 0 } }),
        a.owner.get(`/api/portal/admin/developers/${b.developerId}`),
      ]) {
        const result = await attempt;
        expect(result.status).toBe(403);
        expect(result.body.code).toBe('insufficient_role');
      }
    });

    it('lets a financial secretary read fees but not change them', async () => {
      const secretary = (await signedInPlatformUser(gateway, 'financial_secretary')).client;
      expect((await secretary.get(`/api/portal/admin/developers/${a.developerId}/fees`)).status).toBe(200);
      expect((await secretary.put(`/api/portal/admin/developers/${a.developerId}/fees/NGN`, { body: { amount: 5 } })).status).toBe(403);
      expect((await secretary.post('/api/portal/admin/developers', { body: { email: 'fs@example.com', name: 'FS' } })).status).toBe(403);
    });

    it('lets an administrator set exact fee overrides (zero included) and verify identity', async () => {
      expect((await admin.put(`/api/portal/admin/developers/${a.developerId}/fees/NGN`, { body: { amount: 0 } })).body.data).toEqual({ currency: 'NGN', amount: 0 });
      expect((await admin.put(`/api/portal/admin/developers/${a.developerId}/fees/USD`, { body: { amount: 0.1 } })).status).toBe(200);
      expect((await admin.put(`/api/portal/admin/developers/${a.developerId}/fees/USD`, { body: { amount: 1.005 } })).status).toBe(400);
      expect((await admin.put(`/api/portal/admin/developers/${a.developerId}/fees/EUR`, { body: { amount: 1 } })).body.code).toBe('invalid_currency');
      expect((await admin.get(`/api/portal/admin/developers/${a.developerId}/fees`)).body.data).toEqual([
        { currency: 'NGN', amount: 0 },
        { currency: 'USD', amount: 0.1 },
      ]);
      const verified = await admin.post(`/api/portal/admin/developers/${a.developerId}/verify-identity`);
      expect(verified.body.data).toMatchObject({ id: a.developerId, identity_verified: true });
    });

    it('a platform user without an account cannot use account pages', async () => {
      const keys = await admin.get('/api/portal/keys');
      expect(keys.status).toBe(403);
      expect(keys.body.code).toBe('insufficient_role');
    });
  });
});
