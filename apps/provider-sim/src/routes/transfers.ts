import type { FastifyInstance } from 'fastify';
import { BANKS } from '../banks';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalReference, optionalString, requireString } from '../http/validation';
import { parseCurrency, parseMinorUnits } from '../money';
import { recipientToWire, transferToWire } from '../serializers';
import { createRecipient, createTransfer, findTransfer } from '../services/transfers';

/** /bank, /transferrecipient, /transfer — payouts to bank accounts. */
export function registerTransferRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.get('/bank', async () =>
    ok(
      'Banks retrieved',
      BANKS.map((bank) => ({ ...bank, active: true })),
    ),
  );

  app.post('/transferrecipient', async (request) => {
    const body = asBody(request.body);
    const type = requireString(body, 'type', 20);
    if (type !== 'nuban') throw badRequest('Only recipients of type "nuban" are supported');
    const recipient = createRecipient(ctx, accountOf(request), {
      name: requireString(body, 'name', 200),
      accountNumber: requireString(body, 'account_number', 20),
      bankCode: requireString(body, 'bank_code', 10),
      currency: parseCurrency(body['currency']),
    });
    return ok('Transfer recipient created successfully', recipientToWire(recipient));
  });

  app.post('/transfer', async (request) => {
    const body = asBody(request.body);
    const source = requireString(body, 'source', 20);
    if (source !== 'balance') throw badRequest('source must be "balance"');
    const account = accountOf(request);
    const transfer = createTransfer(ctx, account, {
      amount: parseMinorUnits(body['amount']),
      recipientCode: requireString(body, 'recipient', 100),
      reason: optionalString(body, 'reason'),
      reference: optionalReference(body),
      currency: parseCurrency(body['currency']),
    });
    return ok('Transfer has been queued', transferToWire(account, transfer));
  });

  app.get<{ Params: { reference: string } }>('/transfer/verify/:reference', async (request) => {
    const account = accountOf(request);
    return ok('Transfer retrieved', transferToWire(account, findTransfer(account, request.params.reference)));
  });
}
