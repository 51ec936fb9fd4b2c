export { PaymentsModule } from './payments.module';
export { PaymentsService, parseRequestCurrency, type CallbackPayment, type CapturePayment, type InitializePayment, type PaymentKeyScope, type PaymentListQuery } from './payments.service';
export { PaymentConfirmationService } from './payment-confirmation.service';
export { PaymentChargesService, type ChargeSavedCard } from './payment-charges.service';
export { PaymentOutcomeHooks, type PaymentOutcomeListener } from './payment-outcome-hooks';
export { PaymentPreviewService, toPaymentPreviewResponse, type PaymentPreview, type PaymentPreviewInput } from './payment-preview.service';
export { PaymentRefundBalanceService, type RefundReservation } from './payment-refund-balance.service';
export { PaymentsMaintenanceService } from './payments-maintenance.service';
export { PaymentsSandboxService, type SandboxCheckoutOutcome } from './payments-sandbox.service';
export { SavedCardsService, type SavedCard } from './saved-cards.service';
export { toPaymentResponse, type PaymentView } from './payment.mapper';
export { breakDownPayment, type PaymentBreakdown } from './payment-breakdown';
export { isProviderRefusal } from './provider-refusal';
export { amountLimits, defaultPlatformFee } from './payment-config';
export type { DailyPaymentVolume, PaidPeriod, PaymentPeriod, PaymentSummary, TopCustomer } from './payment-statistics';
/** The one-statement writes of initialize and of a success, for the bare baseline (tools/bench/baseline), which runs the very same SQL. */
export { INSERT_WITH_CUSTOMER } from './payment-insert.statement';
export { SUCCEED_IN_ONE_STATEMENT } from './payment-success.statement';
