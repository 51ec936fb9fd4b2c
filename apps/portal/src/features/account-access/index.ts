export { AcceptInvitationPage } from './pages/AcceptInvitationPage';
export { PasswordResetPage } from './pages/PasswordResetPage';
