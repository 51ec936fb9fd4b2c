import type { SimulatorContext } from '../context';
import type { Account } from '../state/accounts';
import type { CustomerRecord } from '../state/customers';

export interface CustomerDetails {
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/**
 * Customers are identified by email within an account, as on Paystack:
 * creating one twice returns the first, with any newly supplied names/phone
 * filled in. Payments create their customer implicitly the same way.
 */
export function findOrCreateCustomer(
  ctx: SimulatorContext,
  account: Account,
  email: string,
  details: CustomerDetails = {},
): CustomerRecord {
  const existing = account.customers.findByEmail(email);
  if (existing) {
    existing.firstName = details.firstName ?? existing.firstName;
    existing.lastName = details.lastName ?? existing.lastName;
    existing.phone = details.phone ?? existing.phone;
    return existing;
  }
  return account.customers.add({
    id: ctx.ids.numericId(),
    customerCode: ctx.ids.code('CUS'),
    email,
    firstName: details.firstName ?? null,
    lastName: details.lastName ?? null,
    phone: details.phone ?? null,
    createdAt: ctx.now(),
  });
}
