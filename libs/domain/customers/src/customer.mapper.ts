import type { CustomerResponse } from '@gateway/contracts';
import type { CustomerEntity } from './customer.entity';

/** The only bridge from a customer row to the wire. */
export function toCustomerResponse(c: Pick<CustomerEntity, 'reference' | 'email' | 'name' | 'phone' | 'metadata' | 'createdAt'>): CustomerResponse {
  return {
    reference: c.reference,
    email: c.email,
    name: c.name,
    phone: c.phone,
    metadata: c.metadata,
    created_at: c.createdAt.toISOString(),
  };
}
