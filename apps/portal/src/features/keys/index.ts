export { KeysPage } from './pages/KeysPage';
// Other pages name keys (the allowlist limits entries to one key; request logs show which key called).
export { useKeys } from './hooks/useKeys';
export type { PortalKey } from './api';
