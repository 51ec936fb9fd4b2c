import type { SubaccountResponse } from '@gateway/contracts';
import type { SubaccountEntity } from './subaccount.entity';

/** The only bridge from a sub-account row to the wire: the account number leaves as its last 4 digits. */
export function toSubaccountResponse(s: SubaccountEntity): SubaccountResponse {
  return {
    code: s.code,
    business_name: s.businessName,
    bank_code: s.bankCode,
    account_number_last4: s.accountNumber.slice(-4),
    account_name: s.accountName,
    description: s.description,
    active: s.active,
    metadata: s.metadata,
    created_at: s.createdAt.toISOString(),
  };
}
