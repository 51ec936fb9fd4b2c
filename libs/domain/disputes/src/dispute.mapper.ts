import type { DisputeEvidenceResponse, DisputeResponse } from '@gateway/contracts';
import type { DisputeEntity, DisputeEvidence } from './dispute.entity';

/** The only bridge from a dispute row to the wire (API responses and `dispute.*` events). */
export function toDisputeResponse(d: DisputeEntity): DisputeResponse {
  return {
    reference: d.reference,
    payment_reference: d.paymentReference,
    amount: d.amount.toNumber(),
    amount_held: d.heldAmount.toNumber(),
    currency: d.currency,
    reason: d.reason,
    status: d.status,
    evidence: d.evidence && toEvidenceResponse(d.evidence),
    evidence_due_at: d.evidenceDueAt.toISOString(),
    submitted_at: d.submittedAt?.toISOString() ?? null,
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  };
}

function toEvidenceResponse(e: DisputeEvidence): DisputeEvidenceResponse {
  return {
    customer_email: e.customerEmail,
    customer_name: e.customerName,
    customer_phone: e.customerPhone,
    service_details: e.serviceDetails,
    service_date: e.serviceDate,
    delivery_date: e.deliveryDate,
    delivery_address: e.deliveryAddress,
    explanation: e.explanation,
    file_urls: e.fileUrls,
  };
}
