import type { Mode } from '@gateway/contracts';
import type { ProviderRefund, RefundInput } from '../provider.types';
import type { PaystackHttpClient } from './paystack-http-client';
import { toProviderRefund } from './paystack.mapper';
import { asObject, toWireMinor, unexpected } from './paystack-wire';

/** Refunds per page of List Refunds; a transaction has few, so one page is the rule. */
const REFUND_PAGE_SIZE = 100;
/** A provider answering pages forever is a fault, not a transaction with this many refunds. */
const MAX_REFUND_PAGES = 50;

/**
 * Create Refund ([OA] `refund_create`). Paystack takes no reference and no idempotency key for a
 * refund: a second call is a second refund. Callers reconcile with `listRefunds` before asking again.
 */
export async function createRefund(http: PaystackHttpClient, mode: Mode, input: RefundInput): Promise<ProviderRefund> {
  const data = await http.send(mode, {
    operation: 'refund.create',
    method: 'POST',
    path: '/refund',
    body: {
      transaction: input.transactionReference,
      ...(input.amount !== undefined && { amount: toWireMinor(input.amount) }),
    },
  });
  return toProviderRefund(data);
}

/**
 * List Refunds filtered by transaction (`GET /refund?transaction=…&perPage&page`, API reference
 * "List Refunds"), every page (`meta.pageCount`). An entry naming another transaction's reference is
 * left out, should the provider ever ignore the filter.
 */
export async function listRefunds(http: PaystackHttpClient, mode: Mode, transactionReference: string): Promise<ProviderRefund[]> {
  const refunds: ProviderRefund[] = [];
  for (let page = 1; page <= MAX_REFUND_PAGES; page += 1) {
    const answer = await http.sendForEnvelope(mode, {
      operation: 'refund.list',
      method: 'GET',
      path: '/refund',
      query: { transaction: transactionReference, perPage: REFUND_PAGE_SIZE, page },
    });
    if (!Array.isArray(answer.data)) throw unexpected('refunds');
    for (const entry of answer.data) {
      const refund = toProviderRefund(entry, transactionReference);
      if (refund.transactionReference === transactionReference) refunds.push(refund);
    }
    if (page >= pageCount(answer.meta) || answer.data.length === 0) return refunds;
  }
  throw unexpected('refunds pages');
}

function pageCount(meta: unknown): number {
  if (meta === null || meta === undefined) return 1;
  const count = asObject(meta, 'refunds meta')['pageCount'];
  return typeof count === 'number' && Number.isSafeInteger(count) ? count : 1;
}
