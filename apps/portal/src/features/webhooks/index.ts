export { WebhooksPage } from './pages/WebhooksPage';
export { WebhookDetailPage } from './pages/WebhookDetailPage';
export { SignatureDebuggerPage } from './pages/SignatureDebuggerPage';
