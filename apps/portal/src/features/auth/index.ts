export { SignInPage } from './pages/SignInPage';
export { RequireSession } from './components/RequireSession';
export { useMe, ME_QUERY_KEY } from './hooks/useMe';
export { useSignOut } from './hooks/useSignOut';
export type { Me } from './api';
export { useSetMode } from './hooks/useSetMode';
export { ModeSwitch } from './components/ModeSwitch';
export type { Mode } from './api';
export { useSignIn } from './hooks/useSignIn';
