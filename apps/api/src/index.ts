// What the black-box test suite needs to boot the API in-process.
export { createApiApp, API_PREFIX } from './bootstrap/create-api-app';
