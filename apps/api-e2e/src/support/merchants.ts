import type { Mode } from '@gateway/contracts';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { randomBytes } from 'node:crypto';
import type { TestGateway } from './gateway';

export interface TestMerchant {
  developerId: string;
  email: string;
  /** Secret key for the requested mode (test unless asked otherwise). */
  key: string;
  keyId: string;
  /** Issues another key for this merchant. */
  issueKey(options?: { mode?: Mode; kind?: 'secret' | 'publishable'; scopes?: string[]; expiresAt?: Date }): Promise<{ key: string; keyId: string }>;
}

/** Provisions a developer account and a secret key through the real domain services. */
export async function createMerchant(
  gateway: TestGateway,
  options: { emailVerified?: boolean; identityVerified?: boolean; mode?: Mode; scopes?: string[] } = {},
): Promise<TestMerchant> {
  const developers = gateway.app.get(DevelopersService, { strict: false });
  const keys = gateway.app.get(ApiKeysService, { strict: false });
  const email = `merchant-${randomBytes(6).toString('hex')}@example.com`;
  const developer = await developers.create({
    email,
    name: 'Test Merchant',
    emailVerified: options.emailVerified ?? true,
    identityVerified: options.identityVerified ?? false,
  });
  const issueKey: TestMerchant['issueKey'] = async (o = {}) => {
    const issued = await keys.issue({ developerId: developer.id, mode: o.mode ?? 'test', kind: o.kind ?? 'secret', scopes: o.scopes, expiresAt: o.expiresAt });
    return { key: issued.secret, keyId: issued.key.id };
  };
  const first = await issueKey({ mode: options.mode, scopes: options.scopes });
  return { developerId: developer.id, email, key: first.key, keyId: first.keyId, issueKey };
}
