import * as fc from 'fast-check';
import { startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { createSettlementStaff, LedgerRun, type SettlementStaff } from './ledger-model/account';
import { ledgerCommands } from './ledger-model/commands';
import { exactlyCommands } from './ledger-model/exact-commands';
import { LedgerModel } from './ledger-model/model';
import { timeoutFor, trials } from './trials';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20261126);
/** Runs (fast-check's numRuns), each from its own seed-derived sequence on a fresh developer account. */
const RUNS = 20;
/** Operations per run: 200 by default (a few minutes); RELIABILITY_TRIALS_SCALE=50 makes it the 10,000. */
const OPERATIONS = trials(200);
/**
 * Shrinking replays a failing sequence over and over against the real API; once this long has
 * been spent on it the remaining candidates are not tried, and the smallest failing sequence
 * found so far is reported.
 */
const SHRINK_BUDGET_MS = 180_000;

/**
 * Reliability row 3 (ledger model): a model-based random workload — payments (test and live, four
 * currencies, with split shares, some declined), refunds (all, part, more than is left), deposits
 * into a dedicated virtual account, disputes opened and decided, live transfers the bank pays,
 * refuses or sends back, settlements approved (to a bank that pays or refuses) or rejected, the
 * platform fee changed — run over the real API and provider simulator (settlements and the fee
 * through their domain services: they are staff actions of the portal and CLI). After every
 * operation the developer's books must equal the model's to the cent (ledger-model/books.ts).
 */
describe('reliability: the ledger against an independent model', () => {
  let h: PaymentsHarness;
  let staff: SettlementStaff;

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    staff = await createSettlementStaff(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it(
    `${RUNS} runs × ${OPERATIONS} operations: balances equal the model's to the cent, and the books hold, after every step`,
    async () => {
      const started = Date.now();
      let firstFailureAt: number | undefined;
      const tally = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(exactlyCommands(ledgerCommands, OPERATIONS), async (commands) => {
          if (firstFailureAt !== undefined && Date.now() - firstFailureAt > SHRINK_BUDGET_MS) return;
          const model = new LedgerModel();
          const run = await LedgerRun.open(h, staff);
          try {
            await fc.asyncModelRun(() => ({ model, real: run }), commands);
            await run.books.recount(model);
          } catch (error) {
            firstFailureAt ??= Date.now();
            throw error;
          } finally {
            for (const [outcome, count] of model.tally) tally.set(outcome, (tally.get(outcome) ?? 0) + count);
            await run.close();
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
      const seconds = (Date.now() - started) / 1000;
      const operations = [...tally.values()].reduce((a, b) => a + b, 0);
      const outcomes = [...tally].sort(([a], [b]) => a.localeCompare(b)).map(([outcome, count]) => `${outcome}: ${count}`);
      process.stdout.write(
        `ledger model: ${RUNS} runs, ${RUNS * OPERATIONS} operations generated, ${operations} run (the rest had nothing to act on), ${seconds.toFixed(0)} s, ${((seconds * 1000) / operations).toFixed(1)} ms per operation\n  ${outcomes.join('\n  ')}\n`,
      );
    },
    timeoutFor(RUNS * OPERATIONS, 400) + SHRINK_BUDGET_MS,
  );
});
