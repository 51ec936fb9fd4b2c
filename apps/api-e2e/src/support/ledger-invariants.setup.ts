import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';

// After every test file: the books agree (Σ entries = balances, every posting sums to zero, no
// balance below zero). One SQL statement sees one committed snapshot, so files still running in
// other workers cannot make it fail spuriously: every posting commits whole or not at all.
afterAll(async () => {
  await assertLedgerInvariants(process.env.TEST_DATABASE_URL as string);
});
