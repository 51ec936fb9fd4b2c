import { UsersService } from '@gateway/domain/identity';
import { randomBytes } from 'node:crypto';
import type { TestGateway } from './gateway';
import { http, type HttpResult } from './http';

export const PORTAL_PASSWORD = 'correct horse battery staple';

export interface PortalRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the CSRF token this client holds (default true). */
  csrf?: boolean;
  totp?: string;
}

/**
 * A browser stand-in for the portal API: keeps cookies like a browser would (per name, dropped
 * when expired) and echoes the CSRF token it was given in X-CSRF-Token.
 */
export class PortalClient {
  readonly cookies = new Map<string, string>();
  csrfToken?: string;

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: PortalRequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (options.csrf !== false && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    if (options.totp) headers['x-totp-code'] = options.totp;
    const result = await http(this.baseUrl, method, path, { body: options.body, headers });
    this.keepCookies(result.headers);
    return result;
  }

  get = (path: string, options?: PortalRequestOptions) => this.request('GET', path, options);
  post = (path: string, options?: PortalRequestOptions) => this.request('POST', path, options);
  put = (path: string, options?: PortalRequestOptions) => this.request('PUT', path, options);
  delete = (path: string, options?: PortalRequestOptions) => this.request('DELETE', path, options);

  /** GET /auth/csrf and keep the token (pre-login: it also sets the double-submit cookie). */
  async fetchCsrf(): Promise<string> {
    const result = await this.get('/api/portal/auth/csrf');
    if (result.status !== 200) throw new Error(`csrf: ${result.status} ${result.text}`);
    this.csrfToken = result.body.data.csrf_token;
    return this.csrfToken as string;
  }

  /** The password step (with a fresh pre-login CSRF token); keeps the session's CSRF token. */
  async login(email: string, password = PORTAL_PASSWORD): Promise<HttpResult> {
    await this.fetchCsrf();
    const result = await this.post('/api/portal/auth/login', { body: { email, password } });
    if (result.status === 200) this.csrfToken = result.body.data.csrf_token;
    return result;
  }

  async loginTotp(code: string): Promise<HttpResult> {
    const result = await this.post('/api/portal/auth/login/totp', { body: { code } });
    if (result.status === 200) this.csrfToken = result.body.data.csrf_token;
    return result;
  }

  private keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expires = attributes.find((a) => /^expires=/i.test(a));
      const expired = value === '' || (expires !== undefined && new Date(expires.slice(8)).getTime() <= Date.now()) || attributes.some((a) => /^max-age=0$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** A link token from the newest dev-mailbox message to `email`. */
export async function mailedToken(baseUrl: string, email: string): Promise<string> {
  const result = await http(baseUrl, 'GET', `/api/portal/dev/mailbox?to=${encodeURIComponent(email)}`);
  const token = (result.body?.data?.[0]?.body as string | undefined)?.match(/#\/[a-z/-]+\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no token mailed to ${email}: ${result.text}`);
  return token;
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A platform user created the way the operator CLI does, signed in. */
export async function signedInPlatformUser(gateway: TestGateway, platformRole: 'admin' | 'financial_secretary' = 'admin'): Promise<{ client: PortalClient; email: string; userId: string }> {
  const email = uniqueEmail(`staff-${platformRole}`);
  const user = await gateway.app.get(UsersService, { strict: false }).createPlatformUser({ email, name: 'Staff', password: PORTAL_PASSWORD, platformRole });
  const client = new PortalClient(gateway.baseUrl);
  const login = await client.login(email);
  if (login.status !== 200) throw new Error(`staff login: ${login.status} ${login.text}`);
  return { client, email, userId: user.id };
}

export interface PortalAccount {
  developerId: string;
  owner: PortalClient;
  ownerEmail: string;
  ownerId: string;
  /** Invites someone with `role`, accepts over HTTP and returns them signed in. */
  addMember(role: 'owner' | 'admin' | 'developer' | 'viewer'): Promise<{ client: PortalClient; email: string; userId: string }>;
}

/** An account provisioned by a platform admin over HTTP, its owner having accepted and signed in. */
export async function provisionAccount(gateway: TestGateway, admin: PortalClient, options: { identityVerified?: boolean } = {}): Promise<PortalAccount> {
  const ownerEmail = uniqueEmail('owner');
  const provisioned = await admin.post('/api/portal/admin/developers', { body: { email: ownerEmail, name: 'Acme Ltd' } });
  if (provisioned.status !== 201) throw new Error(`provision: ${provisioned.status} ${provisioned.text}`);
  const developerId: string = provisioned.body.data.developer.id;
  if (options.identityVerified) {
    const verified = await admin.post(`/api/portal/admin/developers/${developerId}/verify-identity`);
    if (verified.status !== 200) throw new Error(`verify identity: ${verified.status} ${verified.text}`);
  }
  const owner = await acceptAndSignIn(gateway, ownerEmail);

  const addMember: PortalAccount['addMember'] = async (role) => {
    const email = uniqueEmail(role);
    const invited = await owner.client.post('/api/portal/team/invitations', { body: { email, role } });
    if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`);
    return { ...(await acceptAndSignIn(gateway, email)), email };
  };
  return { developerId, owner: owner.client, ownerEmail, ownerId: owner.userId, addMember };
}

async function acceptAndSignIn(gateway: TestGateway, email: string): Promise<{ client: PortalClient; userId: string }> {
  const client = new PortalClient(gateway.baseUrl);
  await client.fetchCsrf();
  const accepted = await client.post('/api/portal/auth/invitations/accept', { body: { token: await mailedToken(gateway.baseUrl, email), name: 'Member', password: PORTAL_PASSWORD } });
  if (accepted.status !== 201) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  const login = await client.login(email);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  return { client, userId: login.body.data.user.id };
}
