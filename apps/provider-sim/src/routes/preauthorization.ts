import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, requireEmail, requireReference, requireString } from '../http/validation';
import { parseCurrency, parseMinorUnits } from '../money';
import { holdToWire } from '../serializers';
import { captureAuthorization, releaseAuthorization, reserveAuthorization } from '../services/preauthorizations';

/** /preauthorization/* — holds on saved cards, used by the gateway's payment intents. */
export function registerPreauthorizationRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.post('/preauthorization/reserve_authorization', async (request) => {
    const body = asBody(request.body);
    const hold = reserveAuthorization(ctx, accountOf(request), {
      authorizationCode: requireString(body, 'authorization_code', 100),
      email: requireEmail(body),
      amount: parseMinorUnits(body['amount']),
      currency: parseCurrency(body['currency']),
      reference: requireReference(body),
    });
    return ok(hold.status === 'failed' ? 'Reservation failed' : 'Authorization reserved', holdToWire(hold));
  });

  app.post('/preauthorization/capture_authorization', async (request) => {
    const body = asBody(request.body);
    const amount = body['amount'] === undefined || body['amount'] === null ? undefined : parseMinorUnits(body['amount']);
    const hold = captureAuthorization(ctx, accountOf(request), requireReference(body), amount);
    return ok('Authorization captured', holdToWire(hold));
  });

  app.post('/preauthorization/release_authorization', async (request) => {
    const body = asBody(request.body);
    const hold = releaseAuthorization(ctx, accountOf(request), requireReference(body));
    return ok('Authorization released', holdToWire(hold));
  });
}
