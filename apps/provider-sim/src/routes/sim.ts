import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalEnum, optionalString } from '../http/validation';
import { parseMinorUnits } from '../money';
import { disputeToWire, refundToWire, transactionToWire, transferToWire } from '../serializers';
import { depositToDedicatedAccount } from '../services/dedicated-accounts';
import { findDispute, openDispute, resolveDispute } from '../services/disputes';
import { findTransaction, payWithCard } from '../services/payments';
import { completeRefund, findRefund } from '../services/refunds';
import { resetSimulator } from '../services/reset';
import { completeTransfer, findTransfer, reverseTransfer } from '../services/transfers';
import { DISPUTE_RESOLUTIONS } from '../state/disputes';
import { knobPatchFromWire, knobsToWire } from '../state/knobs';
import { CARD_FOR_OUTCOME, findTestCard, type ChargeOutcome } from '../test-cards';
import { numericIdParam } from './params';

const CHARGE_OUTCOMES: readonly ChargeOutcome[] = ['success', 'declined', 'insufficient_funds'];
const TRANSFER_OUTCOMES = ['success', 'failed', 'reversed'] as const;

/**
 * /sim/* — controls that exist only in the simulator: play the customer, the
 * bank or the card network, and inject faults. Same bearer auth as the API;
 * objects are looked up in the caller's account.
 */
export function registerSimulatorRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.post<{ Params: { reference: string } }>('/sim/transactions/:reference/complete', async (request) => {
    const account = accountOf(request);
    const body = asBody(request.body);
    const transaction = findTransaction(account, request.params.reference);
    const cardNumber = optionalString(body, 'card', 30);
    const outcome = optionalEnum(body, 'outcome', CHARGE_OUTCOMES);
    const card = cardNumber !== undefined ? findTestCard(cardNumber) : CARD_FOR_OUTCOME[outcome ?? 'success'];
    if (!card) throw badRequest('Unknown test card. See docs/provider-simulator.md');
    payWithCard(ctx, account, transaction, card);
    return ok('Transaction completed', transactionToWire(account, transaction));
  });

  app.post<{ Params: { accountNumber: string } }>(
    '/sim/dedicated_accounts/:accountNumber/deposits',
    async (request) => {
      const account = accountOf(request);
      const body = asBody(request.body);
      const transaction = depositToDedicatedAccount(ctx, account, request.params.accountNumber, {
        amount: parseMinorUnits(body['amount']),
        senderName: optionalString(body, 'sender_name', 200),
        senderBank: optionalString(body, 'sender_bank', 200),
        senderAccountNumber: optionalString(body, 'sender_account_number', 20),
        narration: optionalString(body, 'narration', 200),
      });
      return ok('Deposit received', transactionToWire(account, transaction));
    },
  );

  app.post('/sim/disputes', async (request) => {
    const account = accountOf(request);
    const body = asBody(request.body);
    const reference = optionalString(body, 'transaction', 100);
    if (reference === undefined) throw badRequest('transaction is required (reference)');
    const amount = body['amount'] === undefined || body['amount'] === null ? undefined : parseMinorUnits(body['amount']);
    const dispute = openDispute(ctx, account, reference, amount, optionalString(body, 'reason'));
    return ok('Dispute opened', disputeToWire(account, dispute));
  });

  app.post<{ Params: { id: string } }>('/sim/disputes/:id/resolve', async (request) => {
    const account = accountOf(request);
    const body = asBody(request.body);
    const dispute = findDispute(account, numericIdParam(request.params.id, 'Dispute not found'));
    const resolution = optionalEnum(body, 'resolution', DISPUTE_RESOLUTIONS);
    if (resolution === undefined) throw badRequest(`resolution must be one of: ${DISPUTE_RESOLUTIONS.join(', ')}`);
    resolveDispute(ctx, account, dispute, resolution);
    return ok('Dispute resolved', disputeToWire(account, dispute));
  });

  /** `success` / `failed` settle a pending transfer; `reversed` sends a successful one back. */
  app.post<{ Params: { reference: string } }>('/sim/transfers/:reference/complete', async (request) => {
    const account = accountOf(request);
    const body = asBody(request.body);
    const transfer = findTransfer(account, request.params.reference);
    const outcome = optionalEnum(body, 'outcome', TRANSFER_OUTCOMES);
    if (outcome === 'reversed') {
      reverseTransfer(ctx, account, transfer);
      return ok('Transfer reversed', transferToWire(account, transfer));
    }
    completeTransfer(ctx, account, transfer, outcome);
    return ok('Transfer completed', transferToWire(account, transfer));
  });

  app.post<{ Params: { id: string } }>('/sim/refunds/:id/complete', async (request) => {
    const account = accountOf(request);
    const body = asBody(request.body);
    const refund = findRefund(account, numericIdParam(request.params.id, 'Refund not found'));
    completeRefund(ctx, account, refund, optionalEnum(body, 'outcome', ['processed', 'failed'] as const) ?? 'processed');
    return ok('Refund completed', refundToWire(account, refund));
  });

  app.get('/sim/knobs', async () => ok('Knobs retrieved', knobsToWire(ctx.knobs.current)));

  app.post('/sim/knobs', async (request) => {
    const knobs = ctx.knobs.update(knobPatchFromWire(asBody(request.body)));
    return ok('Knobs updated', knobsToWire(knobs));
  });

  app.get('/sim/callbacks', async () =>
    ok(
      'Callbacks retrieved',
      ctx.callbacks.deliveries().map((delivery) => ({
        id: delivery.id,
        event: delivery.event,
        url: delivery.url,
        status: delivery.status,
        attempts: delivery.attempts,
        last_response_status: delivery.lastResponseStatus,
        last_error: delivery.lastError,
        body: delivery.body,
        created_at: delivery.createdAt.toISOString(),
      })),
    ),
  );

  // Counted since the simulator started (the log above keeps the last 500): a load test reads how many callbacks were answered.
  app.get('/sim/callbacks/counts', async () => ok('Callback counts retrieved', ctx.callbacks.counts()));

  app.post('/sim/reset', async () => {
    resetSimulator(ctx);
    return ok('Simulator reset', null);
  });
}
