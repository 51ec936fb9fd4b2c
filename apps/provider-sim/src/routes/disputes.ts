import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { badRequest } from '../errors';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalEnum, optionalString, requireEmail, requireString } from '../http/validation';
import { disputeEvidenceToWire, disputeToWire } from '../serializers';
import { addDisputeEvidence, findDispute, issueUploadUrl, resolveByMerchant } from '../services/disputes';
import { DISPUTE_RESOLUTIONS } from '../state/disputes';
import { numericIdParam } from './params';

/**
 * /dispute/* — the merchant's side of a chargeback, at the API reference's paths: fetch, add
 * evidence, get an upload URL, resolve (PUT). Disputes are opened through /sim/disputes.
 */
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

  app.get<{ Params: { id: string } }>('/dispute/:id/upload_url', async (request) => {
    const account = accountOf(request);
    const dispute = findDispute(account, numericIdParam(request.params.id, 'Dispute not found'));
    return ok('Upload url generated', issueUploadUrl(ctx, account, dispute));
  });

  app.put<{ Params: { id: string } }>('/dispute/:id/resolve', async (request) => {
    const account = accountOf(request);
    const dispute = findDispute(account, numericIdParam(request.params.id, 'Dispute not found'));
    const body = asBody(request.body);
    const resolution = optionalEnum(body, 'resolution', DISPUTE_RESOLUTIONS);
    if (resolution === undefined) throw badRequest(`resolution must be one of: ${DISPUTE_RESOLUTIONS.join(', ')}`);
    const resolved = resolveByMerchant(ctx, account, dispute, {
      resolution,
      message: requireString(body, 'message', 2000),
      refundAmount: wholeMinorUnits(body['refund_amount'], 'refund_amount'),
      uploadedFilename: requireString(body, 'uploaded_filename', 100),
      evidenceId: body['evidence'] === undefined || body['evidence'] === null ? undefined : wholeMinorUnits(body['evidence'], 'evidence'),
    });
    return ok('Dispute successfully resolved', disputeToWire(account, resolved));
  });
}

/** A non-negative integer, as a JSON number or digits (a contested dispute refunds 0). */
function wholeMinorUnits(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  throw badRequest(`${field} must be a non-negative integer`);
}
