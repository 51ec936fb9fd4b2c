import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalString, requireEmail, requireString } from '../http/validation';
import { disputeEvidenceToWire, disputeToWire } from '../serializers';
import { addDisputeEvidence, findDispute } from '../services/disputes';
import { numericIdParam } from './params';

/** /dispute/* — the merchant's side of a chargeback. Disputes are opened through /sim/disputes. */
export function registerDisputeRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.get<{ Params: { id: string } }>('/dispute/:id', async (request) => {
    const account = accountOf(request);
    const dispute = findDispute(account, numericIdParam(request.params.id, 'Dispute not found'));
    return ok('Dispute retrieved', disputeToWire(account, dispute));
  });

  app.post<{ Params: { id: string } }>('/dispute/:id/evidence', async (request) => {
    const account = accountOf(request);
    const dispute = findDispute(account, numericIdParam(request.params.id, 'Dispute not found'));
    const body = asBody(request.body);
    const evidence = addDisputeEvidence(ctx, account, dispute, {
      customerEmail: requireEmail(body, 'customer_email'),
      customerName: requireString(body, 'customer_name', 200),
      customerPhone: requireString(body, 'customer_phone', 30),
      serviceDetails: requireString(body, 'service_details', 2000),
      deliveryAddress: optionalString(body, 'delivery_address', 500) ?? null,
      deliveryDate: optionalString(body, 'delivery_date', 40) ?? null,
    });
    return ok('Evidence created', disputeEvidenceToWire(dispute, evidence));
  });
}
