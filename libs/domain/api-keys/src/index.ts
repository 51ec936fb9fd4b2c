export { ApiKeysModule } from './api-keys.module';
export { ApiKeysService, type IssuedApiKey, type NewApiKey } from './api-keys.service';
export { IpAllowlistService, type IpAllowlistEntry } from './ip-allowlist.service';
export { KeyAuthenticator, type AuthenticatedKey } from './key-authenticator';
export { ipMatchesAny, parseIp, parseRule, type IpRule } from './ip-rules';
export type { ApiKeyEntity as ApiKey } from './api-key.entity';
