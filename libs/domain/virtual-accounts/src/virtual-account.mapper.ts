import type { AdminUnmatchedDepositResponse, VirtualAccountDepositResponse, VirtualAccountResponse } from '@gateway/contracts';
import type { VirtualAccountDepositEntity, VirtualAccountEntity } from './virtual-account.entities';

/** The only bridge from an account row to the wire. Provider ids stay behind. */
export function toVirtualAccountResponse(a: VirtualAccountEntity): VirtualAccountResponse {
  return {
    id: a.publicId,
    account_number: a.accountNumber,
    account_name: a.accountName,
    bank_name: a.bankName,
    customer_reference: a.customerReference,
    currency: a.currency,
    status: a.status,
    created_at: a.createdAt.toISOString(),
    deactivated_at: a.deactivatedAt?.toISOString() ?? null,
  };
}

/** A credited deposit (API responses and `virtual_account.credited`): the account it was matched to is given. */
export function toVirtualAccountDepositResponse(d: VirtualAccountDepositEntity, account: Pick<VirtualAccountEntity, 'publicId' | 'customerReference'>): VirtualAccountDepositResponse {
  if (!d.platformFee || !d.providerFee || !d.netAmount) throw new Error(`deposit ${d.reference} is not a credited deposit`);
  return {
    reference: d.reference,
    virtual_account_id: account.publicId,
    customer_reference: account.customerReference,
    amount: d.amount.toNumber(),
    currency: d.currency,
    platform_fee: d.platformFee.toNumber(),
    provider_fee: d.providerFee.toNumber(),
    net_amount: d.netAmount.toNumber(),
    sender_name: d.senderName,
    sender_bank: d.senderBank,
    paid_at: d.paidAt.toISOString(),
    created_at: d.createdAt.toISOString(),
  };
}

export function toAdminUnmatchedDepositResponse(d: VirtualAccountDepositEntity): AdminUnmatchedDepositResponse {
  return {
    reference: d.reference,
    mode: d.mode,
    account_number: d.accountNumber,
    amount: d.amount.toNumber(),
    currency: d.currency,
    provider_fee: d.providerFee?.toNumber() ?? null,
    sender_name: d.senderName,
    sender_bank: d.senderBank,
    paid_at: d.paidAt.toISOString(),
    created_at: d.createdAt.toISOString(),
  };
}
