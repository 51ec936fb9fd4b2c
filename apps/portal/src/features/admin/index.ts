// The admin console (platform staff): loaded on demand as one chunk by ./routes.
export { AdminSection } from './components/AdminSection';
export { OverviewPage } from './overview/OverviewPage';
export { SettlementQueuePage } from './settlements/SettlementQueuePage';
export { UnmatchedDepositsPage } from './deposits/UnmatchedDepositsPage';
export { FailingWebhooksPage } from './webhooks/FailingWebhooksPage';
export { DevelopersPage } from './developers/DevelopersPage';
export { DeveloperDetailPage } from './developers/DeveloperDetailPage';
export { AuditLogPage } from './audit/AuditLogPage';
