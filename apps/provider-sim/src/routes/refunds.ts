import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalString } from '../http/validation';
import { parseMinorUnits } from '../money';
import { refundListEntryToWire, refundToWire } from '../serializers';
import { createRefund, findRefund, listRefunds } from '../services/refunds';
import { numericIdParam } from './params';

/** /refund — refunds settle asynchronously (see the auto_complete and transfer_delay_ms knobs). */
export function registerRefundRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.post('/refund', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    const transaction = body['transaction'];
    if (typeof transaction !== 'string' && typeof transaction !== 'number') {
      throw badRequest('transaction is required (reference or id)');
    }
    const refund = createRefund(ctx, account, {
      transaction: String(transaction).trim(),
      amount: body['amount'] === undefined || body['amount'] === null ? undefined : parseMinorUnits(body['amount']),
      merchantNote: optionalString(body, 'merchant_note'),
    });
    return ok('Refund has been queued for processing', refundToWire(account, refund));
  });

  // List Refunds (API reference): `transaction` filters by the refunded transaction (reference or id).
  app.get<{ Querystring: { transaction?: string; perPage?: string; page?: string } }>('/refund', async (request) => {
    const account = accountOf(request);
    const perPage = request.query.perPage === undefined ? 50 : Number(request.query.perPage);
    const page = request.query.page === undefined ? 1 : Number(request.query.page);
    if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 100) throw badRequest('perPage must be an integer between 1 and 100');
    if (!Number.isSafeInteger(page) || page < 1) throw badRequest('page must be a positive integer');
    const transaction = request.query.transaction?.trim();
    if (!transaction) throw badRequest('transaction is required (reference or id)');
    const { refunds, total } = listRefunds(account, transaction, page, perPage);
    return {
      ...ok('Refunds retrieved', refunds.map((refund) => refundListEntryToWire(account, refund))),
      meta: { total, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(total / perPage)) },
    };
  });

  app.get<{ Params: { id: string } }>('/refund/:id', async (request) => {
    const account = accountOf(request);
    const refund = findRefund(account, numericIdParam(request.params.id, 'Refund not found'));
    return ok('Refund retrieved', refundToWire(account, refund));
  });
}
