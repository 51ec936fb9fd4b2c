export { LedgerModule } from './ledger.module';
export { LedgerService } from './ledger.service';
export { LedgerDuplicatePostingError, LedgerUnbalancedError } from './ledger.errors';
export { toLedgerEntryResponse, toWalletBalanceResponse } from './ledger.mapper';
export {
  chargebackLossLines,
  paymentSuccessLines,
  payoutReturnLines,
  refundLines,
  refundReversalLines,
  releaseReserveLines,
  reserveLines,
  settleReservedLines,
  virtualAccountCreditLines,
  virtualAccountDepositLines,
  type PaymentSuccessAmounts,
  type SplitShareAmount,
} from './posting-lines';
export {
  BUCKETS,
  ENTRY_TYPES,
  type Bucket,
  type EntryType,
  type LedgerAccount,
  type LedgerEntryFilter,
  type LedgerEntryView,
  type Posting,
  type PostingLine,
  type SystemAccount,
  type WalletBalance,
} from './ledger.types';
