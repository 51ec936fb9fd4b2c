import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, requireEmail, requireReference, requireString } from '../http/validation';
import { parseCurrency, parseEnabledCurrency, parseMinorUnits } from '../money';
import { holdToWire, releasedHoldToWire, transactionToWire } from '../serializers';
import { initializeHoldCheckout } from '../services/hold-checkouts';
import { authorizationUrl } from '../services/payments';
import { captureAuthorization, releaseAuthorization, reserveAuthorization, verifyAuthorization } from '../services/preauthorizations';

/**
 * /preauthorization/* — holds on saved cards, at the paths of Paystack's API reference (Card
 * Preauthorization): reserve_authorization, capture, release, and GET /:reference to verify.
 * `currency` is accepted on capture and release, as documented; the hold's own currency rules.
 */
export function registerPreauthorizationRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  // Simulator extension (Paystack has no such path: 404 there, nothing charged): an authorize-only
  // hosted checkout for a customer with no saved card. Answers like /transaction/initialize.
  app.post('/preauthorization/initialize', async (request) => {
    const body = asBody(request.body);
    const hold = initializeHoldCheckout(ctx, accountOf(request), {
      email: requireEmail(body),
      amount: parseMinorUnits(body['amount']),
      currency: parseEnabledCurrency(body['currency'], ctx.knobs.current.currencies),
      reference: requireReference(body),
    });
    return ok('Authorization URL created', {
      authorization_url: authorizationUrl(ctx, { accessCode: hold.accessCode ?? null }),
      access_code: hold.accessCode,
      reference: hold.reference,
    });
  });

  app.post('/preauthorization/reserve_authorization', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    const hold = reserveAuthorization(ctx, account, {
      authorizationCode: requireString(body, 'authorization_code', 100),
      email: requireEmail(body),
      amount: parseMinorUnits(body['amount']),
      currency: parseEnabledCurrency(body['currency'], ctx.knobs.current.currencies),
      reference: requireReference(body),
    });
    return ok('Preauthorization successful', holdToWire(account, hold));
  });

  app.post('/preauthorization/capture', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    if (body['currency'] !== undefined) parseCurrency(body['currency']);
    const amount = body['amount'] === undefined || body['amount'] === null ? undefined : parseMinorUnits(body['amount']);
    const transaction = captureAuthorization(ctx, account, requireReference(body), amount);
    return ok('Capture attempted', transactionToWire(account, transaction));
  });

  app.post('/preauthorization/release', async (request) => {
    const body = asBody(request.body);
    if (body['currency'] !== undefined) parseCurrency(body['currency']);
    const hold = releaseAuthorization(ctx, accountOf(request), requireReference(body));
    return ok('Successfully released', releasedHoldToWire(hold));
  });

  app.get<{ Params: { reference: string } }>('/preauthorization/:reference', async (request) => {
    const account = accountOf(request);
    return ok('Preauthorization retrieved', holdToWire(account, verifyAuthorization(account, request.params.reference)));
  });
}
