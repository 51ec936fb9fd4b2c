// What the black-box test suite needs to boot the API in-process.
export { createApiApp, API_PREFIX } from './bootstrap/create-api-app';
// The route-access test checks every mutating route carries this guard.
export { IdempotencyGuard } from './http/idempotency/idempotency.guard';
