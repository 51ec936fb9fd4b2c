export { LedgerModule } from './ledger.module';
export { LedgerService } from './ledger.service';
/** The SQL of a credit made inside a caller's one statement (see LedgerService.creditInStatement). */
export { creditCtes as ledgerCreditCtes } from './ledger.repository';
export { LedgerDuplicatePostingError, LedgerUnbalancedError } from './ledger.errors';
export { toLedgerEntryResponse, toLedgerVerificationResponse, toWalletBalanceResponse } from './ledger.mapper';
export { ENTRY_HASH_FORMAT, entryHash, type HashedEntryFields } from './entry-hash';
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
  type ChainBreak,
  type ChainBreakReason,
  type ChainVerification,
  type EntryType,
  type LedgerAccount,
  type LedgerEntryFilter,
  type LedgerEntryView,
  type Posting,
  type PostingLine,
  type SystemAccount,
  type WalletBalance,
} from './ledger.types';
