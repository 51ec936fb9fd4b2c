import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type Customer = Schema<'CustomerResponse'>;

export const PAGE_SIZE = 25;

/** The session mode's customers, newest first; `email` finds one by its exact address (case-insensitive). */
export function listCustomers(email: string | undefined, cursor: string | undefined, signal?: AbortSignal): Promise<Page<Customer[]>> {
  const query = { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(email ? { email } : {}) };
  return unwrapPage(portalApi.GET('/api/portal/customers', { params: { query }, signal }));
}

export function getCustomer(reference: string, signal?: AbortSignal): Promise<Customer> {
  return unwrap(portalApi.GET('/api/portal/customers/{reference}', { params: { path: { reference } }, signal }));
}
