import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalString } from '../http/validation';
import { parseMinorUnits } from '../money';
import { refundToWire } from '../serializers';
import { createRefund, findRefund } from '../services/refunds';
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

  app.get<{ Params: { id: string } }>('/refund/:id', async (request) => {
    const account = accountOf(request);
    const refund = findRefund(account, numericIdParam(request.params.id, 'Refund not found'));
    return ok('Refund retrieved', refundToWire(account, refund));
  });
}
