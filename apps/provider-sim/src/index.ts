/**
 * @gateway/provider-sim — an in-memory simulator of the upstream payment
 * provider, speaking Paystack's wire format over real HTTP.
 * See docs/provider-simulator.md.
 */
export { createProviderSimulator } from './simulator';
export type { ProviderSimulator, ProviderSimulatorOptions } from './simulator';
export { signCallbackBody } from './callbacks';
export type { CallbackDelivery, CallbackEvent, DeliveryStatus } from './callbacks';
export { DEFAULT_FEE_SCHEDULE, calculateFee } from './fees';
export type { FeeRule, FeeSchedule } from './fees';
export { SUPPORTED_CURRENCIES } from './money';
export type { Currency, MinorUnits } from './money';
export { CARD_FOR_OUTCOME, TEST_CARDS, findTestCard } from './test-cards';
export type { CardBrand, ChargeOutcome, TestCard } from './test-cards';
export {
  BANKS,
  FAILING_TRANSFER_ACCOUNT_NUMBER,
  REVERSING_TRANSFER_ACCOUNT_NUMBER,
  SILENT_TRANSFER_ACCOUNT_NUMBER,
  UNRESOLVABLE_ACCOUNT_NUMBER,
  accountNameFor,
} from './banks';
export { DEFAULT_KNOBS } from './state/knobs';
export type { DuplicateReferences, Knobs, TimeoutMode } from './state/knobs';
export { TRANSFER_OTP } from './services/transfers';
