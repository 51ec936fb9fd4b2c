import type { SettlementDecisionResponse, SettlementResponse } from '@gateway/contracts';
import type { SettlementDecisionEntity } from './settlement-decision.entity';
import type { SettlementEntity } from './settlement.entity';

/** The only bridge from a settlement row to the wire (API, portal and `withdrawal.completed`). */
export function toSettlementResponse(s: SettlementEntity): SettlementResponse {
  return {
    reference: s.reference,
    status: s.status,
    amount: s.amount.toNumber(),
    currency: s.currency,
    origin: s.origin,
    bank_account: { bank_code: s.bankCode, account_name: s.accountName, account_number_last4: s.accountNumber.slice(-4) },
    created_at: s.createdAt.toISOString(),
    approved_at: s.approvedAt?.toISOString() ?? null,
    completed_at: s.completedAt?.toISOString() ?? null,
    failure_reason: s.failureReason,
    rejection_reason: s.rejectionReason,
  };
}

/** A decision on the wire; `emailOf` names the person (the auto-approval has none). */
export function toSettlementDecisionResponse(d: SettlementDecisionEntity, emailOf: (userId: string) => string): SettlementDecisionResponse {
  return { decision: d.decision, by: d.userId ? emailOf(d.userId) : 'auto-approval', ip: d.ip, reason: d.reason, at: d.createdAt.toISOString() };
}
