import type { FastifyInstance } from 'fastify';
import { bankToWire, type RecipientType } from '../banks';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalEnum, optionalString, requireString } from '../http/validation';
import { parseCurrency, parseMinorUnits } from '../money';
import { recipientToWire, resolvedAccountToWire, transferToWire } from '../serializers';
import { listBanks, resolveAccount, type BankQuery, type ResolveAccountQuery } from '../services/banks';
import { createRecipient, createTransfer, finalizeTransfer, findTransfer } from '../services/transfers';

const RECIPIENT_TYPES: readonly RecipientType[] = ['nuban', 'ghipss', 'basa', 'kepss', 'mobile_money'];

/** /bank, /bank/resolve, /transferrecipient, /transfer — payouts to bank accounts and mobile money. */
export function registerTransferRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.get<{ Querystring: BankQuery }>('/bank', async (request) => {
    const page = listBanks(request.query);
    return { ...ok('Banks retrieved', page.banks.map(bankToWire)), meta: page.meta };
  });

  app.get<{ Querystring: ResolveAccountQuery }>('/bank/resolve', async (request) => {
    const resolved = resolveAccount(request.query);
    return ok('Account number resolved', resolvedAccountToWire(resolved));
  });

  app.post('/transferrecipient', async (request, reply) => {
    const body = asBody(request.body);
    const type = optionalEnum(body, 'type', RECIPIENT_TYPES);
    if (type === undefined) throw badRequest(`type must be one of: ${RECIPIENT_TYPES.join(', ')}`);
    const account = accountOf(request);
    const recipient = createRecipient(ctx, account, {
      type,
      name: requireString(body, 'name', 200),
      accountNumber: requireString(body, 'account_number', 20),
      bankCode: requireString(body, 'bank_code', 10),
      currency: parseCurrency(body['currency']),
    });
    // 201, as the API reference documents for Create Transfer Recipient.
    return reply.code(201).send(ok('Transfer recipient created successfully', recipientToWire(account, recipient)));
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
      reference: optionalString(body, 'reference', 100),
      currency: parseCurrency(body['currency']),
    });
    const message = transfer.status === 'otp' ? 'Transfer requires OTP to continue' : 'Transfer has been queued';
    return ok(message, transferToWire(account, transfer, 'id'));
  });

  app.post('/transfer/finalize_transfer', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    const transfer = finalizeTransfer(ctx, account, requireString(body, 'transfer_code', 100), requireString(body, 'otp', 20));
    return ok('Transfer has been queued', transferToWire(account, transfer, 'id'));
  });

  app.get<{ Params: { reference: string } }>('/transfer/verify/:reference', async (request) => {
    const account = accountOf(request);
    return ok('Transfer retrieved', transferToWire(account, findTransfer(account, request.params.reference)));
  });
}
