import { createHashRouter, Navigate } from 'react-router';
import { ADMIN_ROUTES } from '../features/admin/routes';
import { RequireSession, SignInPage } from '../features/auth';
import { NotFoundPage } from './NotFoundPage';
import { PortalLayout } from './PortalLayout';

/** A route's document title and navigation label (read by the layout through `useMatches`). */
export interface RouteHandle {
  title: string;
}

/**
 * The portal's routes. Hash URLs (`/#/keys`) keep the app servable as static files behind any
 * proxy without rewrite rules. Pages load on demand, so the first load carries only the shell.
 */
export function createPortalRouter() {
  return createHashRouter([
    { path: '/sign-in', element: <SignInPage /> },
    // The e-mailed links (libs/domain/identity's identity-mails.ts): outside the layout, as sign-in.
    { path: '/invitations/accept', lazy: async () => ({ Component: (await import('../features/account-access')).AcceptInvitationPage }) },
    { path: '/password-reset', lazy: async () => ({ Component: (await import('../features/account-access')).PasswordResetPage }) },
    {
      element: <PortalLayout />,
      children: [
        { index: true, element: <Navigate to="/dashboard" replace /> },
        {
          path: '/status',
          handle: { title: 'API status' } satisfies RouteHandle,
          lazy: async () => ({ Component: (await import('../features/status')).StatusPage }),
        },
        {
          element: <RequireSession />,
          children: [
            {
              path: '/dashboard',
              handle: { title: 'Dashboard' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/dashboard')).DashboardPage }),
            },
            {
              path: '/keys',
              handle: { title: 'API keys' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/keys')).KeysPage }),
            },
            {
              path: '/payments',
              handle: { title: 'Payments' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/payments')).PaymentsPage }),
            },
            {
              path: '/payments/:reference',
              handle: { title: 'Payment' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/payments')).PaymentDetailPage }),
            },
            {
              path: '/refunds/:reference',
              handle: { title: 'Refund' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/payments')).RefundRedirectPage }),
            },
            {
              path: '/customers',
              handle: { title: 'Customers' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/customers')).CustomersPage }),
            },
            {
              path: '/customers/:reference',
              handle: { title: 'Customer' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/customers')).CustomerDetailPage }),
            },
            {
              path: '/wallet',
              handle: { title: 'Wallet' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/wallet')).WalletPage }),
            },
            {
              path: '/withdrawals',
              handle: { title: 'Withdrawals' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/withdrawals')).WithdrawalsPage }),
            },
            {
              path: '/ip-allowlist',
              handle: { title: 'IP allowlist' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/ip-allowlist')).IpAllowlistPage }),
            },
            {
              path: '/request-logs',
              handle: { title: 'Request logs' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/request-logs')).RequestLogsPage }),
            },
            {
              // The request log's "View trace": what one request did.
              path: '/request-logs/:requestId',
              handle: { title: 'Request trace' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/request-logs')).RequestTracePage }),
            },
            {
              path: '/webhooks',
              handle: { title: 'Webhooks' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/webhooks')).WebhooksPage }),
            },
            {
              path: '/webhooks/debugger',
              handle: { title: 'Signature debugger' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/webhooks')).SignatureDebuggerPage }),
            },
            {
              path: '/webhooks/:id',
              handle: { title: 'Webhook endpoint' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/webhooks')).WebhookDetailPage }),
            },
            {
              path: '/analytics',
              handle: { title: 'Analytics' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/analytics')).AnalyticsPage }),
            },
            {
              // Export e-mails link here (`#/reports`).
              path: '/reports',
              handle: { title: 'Reports' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/reports')).ReportsPage }),
            },
            {
              path: '/audit',
              handle: { title: 'Audit log' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/audit')).AuditLogPage }),
            },
            {
              path: '/team',
              handle: { title: 'Team' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/team')).TeamPage }),
            },
            {
              path: '/sandbox',
              handle: { title: 'Sandbox' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/sandbox')).SandboxPage }),
            },
            {
              path: '/settings',
              handle: { title: 'Settings' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('../features/settings')).SettingsPage }),
            },
            // The admin console (platform staff), /admin/…: features/admin/routes.tsx.
            ...ADMIN_ROUTES,
          ],
        },
        { path: '*', handle: { title: 'Page not found' } satisfies RouteHandle, element: <NotFoundPage /> },
      ],
    },
  ]);
}

export type PortalRouter = ReturnType<typeof createPortalRouter>;
