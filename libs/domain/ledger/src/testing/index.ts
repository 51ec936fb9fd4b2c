export { assertLedgerInvariants, findLedgerInvariantViolations, type LedgerInvariantViolation, type Queryable } from './ledger-invariants';
