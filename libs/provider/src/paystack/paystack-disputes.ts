import type { Mode } from '@gateway/contracts';
import { DomainError } from '@gateway/platform';
import type {
  DisputeDocument,
  DisputeEvidenceInput,
  ProviderDispute,
  ProviderDisputeEvidence,
  ProviderDisputeUpload,
  ResolveDisputeInput,
} from '../provider.types';
import type { PaystackHttpClient } from './paystack-http-client';
import { toProviderDispute, toProviderDisputeEvidence, toProviderDisputeUpload } from './paystack.mapper';

/**
 * Disputes at the paths of Paystack's API reference "Disputes": evidence is recorded with
 * `POST /dispute/:id/evidence` — which does not contest anything — and the merchant answers with
 * `PUT /dispute/:id/resolve` (resolution, message, refund_amount, uploaded_filename and, to
 * contest, the evidence id), after uploading a document to `GET /dispute/:id/upload_url`.
 */

const path = (providerDisputeId: string, rest = '') => `/dispute/${encodeURIComponent(providerDisputeId)}${rest}`;

export async function addEvidence(http: PaystackHttpClient, mode: Mode, providerDisputeId: string, evidence: DisputeEvidenceInput): Promise<ProviderDisputeEvidence> {
  const data = await http.send(mode, {
    operation: 'dispute.evidence',
    method: 'POST',
    path: path(providerDisputeId, '/evidence'),
    body: {
      customer_email: evidence.customerEmail,
      customer_name: evidence.customerName,
      customer_phone: evidence.customerPhone,
      service_details: evidence.serviceDetails,
      ...(evidence.deliveryAddress !== undefined && { delivery_address: evidence.deliveryAddress }),
      ...(evidence.deliveryDate !== undefined && { delivery_date: evidence.deliveryDate }),
    },
  });
  return toProviderDisputeEvidence(data);
}

export async function uploadUrl(http: PaystackHttpClient, mode: Mode, providerDisputeId: string, fileName: string): Promise<ProviderDisputeUpload> {
  const data = await http.send(mode, {
    operation: 'dispute.upload_url',
    method: 'GET',
    path: path(providerDisputeId, '/upload_url'),
    query: { upload_filename: fileName },
  });
  return toProviderDisputeUpload(data);
}

/**
 * PUTs the document to the signed URL the provider handed out (no key: the URL is the
 * permission). Any answer but 2xx — or none in time — is a `provider_error`; the URL is never logged.
 */
export async function uploadDocument(upload: ProviderDisputeUpload, document: DisputeDocument, timeoutMs: number): Promise<void> {
  let status: number;
  try {
    const response = await fetch(upload.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': document.contentType },
      body: document.content,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    await response.arrayBuffer();
  } catch {
    throw new DomainError('provider_error', 'The dispute document could not be uploaded to the payment provider; please try again later.');
  }
  if (status < 200 || status >= 300) {
    throw new DomainError('provider_error', 'The payment provider refused the dispute document; please try again later.');
  }
}

export async function resolve(http: PaystackHttpClient, mode: Mode, providerDisputeId: string, input: ResolveDisputeInput): Promise<ProviderDispute> {
  const data = await http.send(mode, {
    operation: 'dispute.resolve',
    method: 'PUT',
    path: path(providerDisputeId, '/resolve'),
    body: {
      resolution: input.resolution,
      message: input.message,
      refund_amount: refundMinor(input),
      uploaded_filename: input.uploadedFileName,
      ...(input.providerEvidenceId !== undefined && { evidence: Number(input.providerEvidenceId) }),
    },
  });
  return toProviderDispute(data);
}

/** Zero is a valid refund here (a contested dispute refunds nothing); toWireMinor refuses it. */
function refundMinor(input: ResolveDisputeInput): number {
  const minor = input.refundAmount.toMinor();
  if (minor < 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new DomainError('validation_error', 'The refund amount is out of range.', { refund_amount: ['is out of range'] });
  }
  return Number(minor);
}
