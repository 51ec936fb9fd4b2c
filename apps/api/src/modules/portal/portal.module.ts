import { Module } from '@nestjs/common';
import { ApiKeysModule } from '@gateway/domain/api-keys';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { IdentityModule } from '@gateway/domain/identity';
import { LedgerModule } from '@gateway/domain/ledger';
import { PaymentsModule } from '@gateway/domain/payments';
import { RefundsModule } from '@gateway/domain/refunds';
import { SettlementsModule } from '@gateway/domain/settlements';
import { VirtualAccountsModule } from '@gateway/domain/virtual-accounts';
import { WebhooksModule } from '@gateway/domain/webhooks';
import { DisputesModule } from '@gateway/domain/disputes';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { TimeRulesModule } from '@gateway/domain/time-rules';
import { PasswordLoginGuard } from './auth/password-login.guard';
import { PortalGuard } from './auth/portal.guard';
import { TotpGuard } from './auth/require-totp';
import { MePresenter } from './me.presenter';
import { PortalAdminController } from './portal-admin.controller';
import { PortalAdminDevelopersController } from './portal-admin-developers.controller';
import { PortalAdminAuditController, PortalAuditController } from './portal-audit.controller';
import { AuditModule } from '@gateway/domain/audit';
import { PortalAuthController } from './portal-auth.controller';
import { PortalDevMailboxController } from './portal-dev-mailbox.controller';
import { PortalIpAllowlistController } from './portal-ip-allowlist.controller';
import { PortalKeysController } from './portal-keys.controller';
import { PortalMeController } from './portal-me.controller';
import { PortalRequestLogsController } from './portal-request-logs.controller';
import { PortalRequestsController } from './portal-requests.controller';
import { RequestsApiModule } from '../requests/requests-api.module';
import { PortalTeamController } from './portal-team.controller';
import { PortalSettlementsController } from './portal-settlements.controller';
import { PortalAdminSettlementsController } from './portal-admin-settlements.controller';
import { PortalAdminDepositsController } from './portal-admin-deposits.controller';
import { PortalAdminWebhooksController } from './portal-admin-webhooks.controller';
import { PortalCustomersController } from './portal-customers.controller';
import { PortalDashboardController } from './portal-dashboard.controller';
import { PortalPaymentsController, PortalRefundsController } from './portal-payments.controller';
import { PortalWalletController } from './portal-wallet.controller';
import { PortalWebhooksController } from './portal-webhooks.controller';
import { PortalSandboxController } from './portal-sandbox.controller';
import { PortalExportsController } from './portal-exports.controller';
import { ExportsModule } from '@gateway/domain/exports';
import { AnalyticsModule } from '@gateway/domain/analytics';
import { AnalyticsApiModule } from '../analytics/analytics-api.module';
import { PortalAdminAnalyticsController, PortalAnalyticsController } from './portal-analytics.controller';
import { PortalAdminOverviewController } from './portal-admin-overview.controller';

/** The developer portal's API under /api/portal: people, sessions, TOTP, keys, team, payments, customers, wallet, settlements, admin. */
@Module({
  imports: [IdentityModule, DevelopersModule, ApiKeysModule, SettlementsModule, LedgerModule, VirtualAccountsModule, PaymentsModule, RefundsModule, CustomersModule, DisputesModule, PaymentIntentsModule, TestClocksModule, TimeRulesModule, WebhooksModule, AnalyticsModule, AnalyticsApiModule, AuditModule, ExportsModule, RequestsApiModule],
  controllers: [
    PortalAuthController,
    PortalMeController,
    PortalKeysController,
    PortalIpAllowlistController,
    PortalRequestLogsController,
    PortalRequestsController,
    PortalTeamController,
    PortalAdminController,
    PortalAdminDevelopersController,
    PortalAdminAuditController,
    PortalAuditController,
    PortalSettlementsController,
    PortalAdminSettlementsController,
    PortalAdminDepositsController,
    PortalAdminWebhooksController,
    PortalDevMailboxController,
    PortalPaymentsController,
    PortalRefundsController,
    PortalCustomersController,
    PortalWalletController,
    PortalDashboardController,
    PortalWebhooksController,
    PortalSandboxController,
    PortalExportsController,
    PortalAnalyticsController,
    PortalAdminAnalyticsController,
    PortalAdminOverviewController,
  ],
  providers: [PasswordLoginGuard, PortalGuard, TotpGuard, MePresenter],
})
export class PortalModule {}
