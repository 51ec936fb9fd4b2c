export { SignInPage } from './pages/SignInPage';
export { RequireSession } from './components/RequireSession';
export { useMe, ME_QUERY_KEY } from './hooks/useMe';
export { useSignOut } from './hooks/useSignOut';
export type { Me } from './api';
