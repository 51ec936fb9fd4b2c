export { IdempotencyModule } from './idempotency.module';
export {
  IdempotencyService,
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotentRequest,
  type StoredResponse,
} from './idempotency.service';
export { requestFingerprint, stableJson } from './request-fingerprint';
export { IDEMPOTENCY_KEY_MAX_LENGTH, idempotencyKeyProblem } from './idempotency-key-format';
