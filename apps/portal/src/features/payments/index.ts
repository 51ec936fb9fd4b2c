export { PaymentsPage } from './pages/PaymentsPage';
export { PaymentDetailPage } from './pages/PaymentDetailPage';
export { RefundRedirectPage } from './pages/RefundRedirectPage';
// The customer page lists a customer's payments with the same table and query.
export { PaymentsTable } from './components/PaymentsTable';
export { usePayments } from './hooks/usePayments';
