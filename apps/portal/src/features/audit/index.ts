export { AuditLogPage } from './pages/AuditLogPage';
