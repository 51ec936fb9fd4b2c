export { ApiKeysModule } from './api-keys.module';
export { ApiKeysService, type IssuedApiKey, type NewApiKey } from './api-keys.service';
export type { ApiKeyEntity as ApiKey } from './api-key.entity';
