export { CURRENCIES, CURRENCY_MINOR_DIGITS, InvalidCurrencyError, isCurrency, parseCurrency, type Currency } from './currency';
export { ROUNDINGS, type Rounding } from './decimal';
export {
  Amount,
  AMOUNT_DECIMAL_PLACES,
  hasAtMostTwoDecimals,
  InvalidAmountError,
  InvalidRateError,
  MAX_AMOUNT_MINOR,
  MAX_EXACT_NUMBER_INPUT,
  type InvalidAmountReason,
  type RateInput,
} from './amount';
export {
  InvalidShareError,
  parseShares,
  Share,
  SHARE_DECIMAL_PLACES,
  sharesSumToAtMostOne,
  sumOfSharesInBasisPoints,
  WHOLE_IN_BASIS_POINTS,
  type InvalidShareReason,
} from './share';
export { allocateByRatios, allocateByShares, allocateEvenly, type ShareAllocation } from './allocation';
export { checkAmount, DEFAULT_AMOUNT_LIMITS, isWithinLimits, type AmountCheck, type AmountLimits, type AmountProblem } from './limits';
export { computeFee, type FeeSchedule } from './fees';
export { amountTransformer } from './amount.transformer';
export { parseRequestAmount } from './request-amount';
