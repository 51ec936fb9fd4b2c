import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import {
  asBody,
  optionalHttpUrl,
  optionalMetadata,
  optionalReference,
  requireEmail,
  requireString,
} from '../http/validation';
import { parseEnabledCurrency, parseMinorUnits } from '../money';
import { misreportedTransaction, transactionToWire } from '../serializers';
import { authorizationUrl, chargeAuthorization, findTransaction, initializeTransaction } from '../services/payments';

/** /transaction/* — hosted-checkout payments and charges on saved cards. */
export function registerTransactionRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.post('/transaction/initialize', async (request) => {
    const body = asBody(request.body);
    const transaction = initializeTransaction(ctx, accountOf(request), {
      email: requireEmail(body),
      amount: parseMinorUnits(body['amount']),
      currency: parseEnabledCurrency(body['currency'], ctx.knobs.current.currencies),
      reference: optionalReference(body),
      callbackUrl: optionalHttpUrl(body, 'callback_url'),
      metadata: optionalMetadata(body),
    });
    return ok('Authorization URL created', {
      authorization_url: authorizationUrl(ctx, transaction),
      access_code: transaction.accessCode,
      reference: transaction.reference,
    });
  });

  app.get<{ Params: { reference: string } }>('/transaction/verify/:reference', async (request) => {
    const account = accountOf(request);
    const transaction = findTransaction(account, request.params.reference);
    return ok('Verification successful', answered(ctx, transactionToWire(account, transaction)));
  });

  app.post('/transaction/charge_authorization', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    const transaction = chargeAuthorization(ctx, account, {
      authorizationCode: requireString(body, 'authorization_code', 100),
      email: requireEmail(body),
      amount: parseMinorUnits(body['amount']),
      currency: parseEnabledCurrency(body['currency'], ctx.knobs.current.currencies),
      reference: optionalReference(body),
      metadata: optionalMetadata(body),
    });
    // Like Paystack: a declined charge is still a successful API call; read data.status.
    return ok('Charge attempted', answered(ctx, transactionToWire(account, transaction)));
  });
}

/** The transaction as answered: misreported while the `misreport_next` knob says so. */
function answered(ctx: SimulatorContext, wire: ReturnType<typeof transactionToWire>): ReturnType<typeof transactionToWire> {
  const field = ctx.knobs.takeMisreport();
  return field ? misreportedTransaction(wire, field) : wire;
}
