import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AuditActor, AuditService } from '@gateway/domain/audit';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { LedgerService, releaseReserveLines, reserveLines } from '@gateway/domain/ledger';
import { amountLimits, parseRequestCurrency } from '@gateway/domain/payments';
import { PaymentProvider } from '@gateway/provider';
import type { Mode, SettlementResponse, SettlementStatus } from '@gateway/contracts';
import {
  allPages,
  Amount,
  APP_CONFIG,
  type AppConfig,
  checkAmount,
  Clock,
  type Currency,
  type DeveloperContext,
  DomainError,
  inTransaction,
  type Page,
  READ_THROUGH_PAGE_SIZE,
  type ServingRequest,
  tenantOf,
  timeOrderedHex,
  timeOrderedUuid,
} from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { SettlementDecisionEntity } from './settlement-decision.entity';
import type { SettlementEntity } from './settlement.entity';
import { toSettlementResponse } from './settlement.mapper';
import { SettlementPayoutsService } from './settlement-payouts.service';
import { isDuplicateDecision, type SettlementListFilter, SettlementsRepository } from './settlements.repository';

/** Who acts on a settlement, and from where (recorded with every step). */
export interface SettlementActor {
  userId: string;
  ip: string | null;
  /** How the audit log names them (a portal user, or an operator at the CLI); by default the user, unlabelled. */
  audit?: AuditActor;
  /** The portal request deciding (its id is what the postings and events it causes record); none at the CLI. */
  requestId?: string;
}

/** The settlement bank account is a naira account (a NUBAN): settlements are paid in NGN. */
export const SETTLEMENT_CURRENCIES: readonly Currency[] = ['NGN'];

/** References of settlements: lowercase and 16+ characters, as the provider's transfer references must be. */
export const SETTLEMENT_REFERENCE_PREFIX = 'stl_';

/** A new settlement's row, as the request or the auto-settlement run describes it. */
export interface NewSettlement {
  developer: Developer;
  amount: Amount;
  currency: Currency;
  origin: 'manual' | 'auto';
  requestedBy: SettlementActor | null;
  autoPeriod?: string;
  /** The account's request asking for it (its id is what the reservation's posting records); none for auto-settlements. */
  within?: ServingRequest;
}

/**
 * Withdrawals of the wallet to the account's registered bank account (tables `settlements`,
 * `settlement_decisions`), live mode only. A request reserves the amount (available → reserved) in
 * the transaction that stores it, `pending_approval`. Platform staff approve it — two different
 * people above SETTLEMENT_TWO_PERSON_THRESHOLD, never the person who asked — or reject it (the
 * reservation released). Approved, it is paid out by the provider (SettlementPayoutsService).
 * Every step records who, when and from which address.
 */
@Injectable()
export class SettlementsService {
  private readonly logger = new Logger(SettlementsService.name);

  constructor(
    private readonly repository: SettlementsRepository,
    private readonly payouts: SettlementPayoutsService,
    private readonly developers: DevelopersService,
    private readonly ledger: LedgerService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  /**
   * Registers where settlements are paid: the account is resolved at its bank through the live
   * provider, and the bank's name for it is stored. Settlements already requested keep the account
   * they were requested for.
   * @throws developer_not_found, capability_not_supported, validation_error (unknown bank, an account the bank does not know), gateway_timeout, provider_error
   */
  async setAccount(developerId: string, input: { bankCode: string; accountNumber: string }, actor: AuditActor): Promise<Developer> {
    this.provider.capabilities('live').require('transfers', 'NGN');
    if (!/^[0-9]{10}$/.test(input.accountNumber)) {
      throw new DomainError('validation_error', 'The account number is not valid.', { account_number: ['must be a 10-digit NUBAN'] });
    }
    const bank = (await this.provider.listBanks('live', 'NGN')).find((candidate) => candidate.code === input.bankCode);
    if (!bank) throw new DomainError('validation_error', 'The bank is not known.', { bank_code: ['is not an NGN bank listed by GET /banks'] });
    const resolved = await this.provider.resolveAccount('live', input);
    if (!resolved) throw new DomainError('validation_error', 'The bank account could not be resolved.', { account_number: [`is not an account at ${bank.name}`] });
    const developer = await this.developers.setSettlementAccount(developerId, { ...input, accountName: resolved.accountName }, this.audit.developerRecorder(actor));
    this.logger.log(`settlement account of developer ${developerId} set to bank ${input.bankCode}, account ending ${input.accountNumber.slice(-4)}`);
    return developer;
  }

  /**
   * A person asks to withdraw `amount` to the registered account; it waits for approval with the
   * amount reserved.
   * @throws live_mode_required, invalid_state (no settlement account), invalid_currency, validation_error,
   *         capability_not_supported, insufficient_wallet_balance
   */
  async request(ctx: DeveloperContext, input: { amount: number; currency?: string }, actor: SettlementActor): Promise<SettlementEntity> {
    if (ctx.mode !== 'live') throw new DomainError('live_mode_required', 'Settlements move real money: switch the portal to live mode.');
    const currency = parseRequestCurrency(input.currency);
    if (!SETTLEMENT_CURRENCIES.includes(currency)) {
      throw new DomainError('validation_error', 'The settlement currency is not valid.', { currency: ['must be NGN: the settlement bank account is a naira account'] });
    }
    const checked = checkAmount(input.amount, currency, amountLimits(this.config));
    if (!checked.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [checked.message] });
    const developer = await this.developers.get(ctx.developerId);
    return this.create({ developer, amount: checked.amount, currency, origin: 'manual', requestedBy: actor, within: ctx });
  }

  /**
   * Stores a settlement and reserves its amount, together (a short balance rolls both back). An
   * auto-settlement within the auto-approve limit is approved in the same transaction, and paid out.
   * @throws invalid_state (no settlement account), capability_not_supported, insufficient_wallet_balance, QueryFailedError (a duplicate auto period)
   */
  async create(input: NewSettlement): Promise<SettlementEntity> {
    const { developer, amount, currency } = input;
    if (!developer.settlementAccountNumber || !developer.settlementBankCode || !developer.settlementAccountName) {
      throw new DomainError('invalid_state', 'The account has no settlement bank account: set one first.');
    }
    this.provider.capabilities('live').require('transfers', currency);
    const ctx = tenantOf({ developerId: developer.id, mode: 'live' }, input.within);
    const autoApproved = input.origin === 'auto' && withinLimit(amount, this.config.settlements.autoApproveLimits[currency]);
    const settlement = await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const row: SettlementEntity = {
        id: timeOrderedUuid(),
        developerId: developer.id,
        mode: 'live',
        reference: `${SETTLEMENT_REFERENCE_PREFIX}${timeOrderedHex(12)}`,
        amount,
        currency,
        status: autoApproved ? 'approved' : 'pending_approval',
        origin: input.origin,
        bankCode: developer.settlementBankCode as string,
        accountNumber: developer.settlementAccountNumber as string,
        accountName: developer.settlementAccountName as string,
        requestedBy: input.requestedBy?.userId ?? null,
        requestedIp: input.requestedBy?.ip ?? null,
        approvalsRequired: aboveLimit(amount, this.config.settlements.twoPersonThresholds[currency]) ? 2 : 1,
        autoPeriod: input.autoPeriod ?? null,
        providerTransferCode: null,
        failureReason: null,
        rejectionReason: null,
        createdAt: now,
        approvedAt: autoApproved ? now : null,
        completedAt: null,
        updatedAt: now,
      };
      const inserted = await this.repository.insert(manager, row);
      await this.ledger.post(manager, ctx, {
        currency,
        sourceType: 'settlement',
        sourceId: row.id,
        kind: 'reserve',
        reference: row.reference,
        lines: reserveLines(amount, `Settlement ${row.reference} to ${row.accountName}`),
      });
      if (autoApproved) await this.repository.insertDecision(manager, decision(row.id, null, 'approve', null, null, now));
      return inserted;
    });
    if (autoApproved) await this.payOutQuietly(settlement.id, input.within);
    return this.repository.findById(settlement.id);
  }

  /** @throws settlement_not_found (also another developer's, or in test mode) */
  async get(ctx: DeveloperContext, reference: string): Promise<SettlementEntity> {
    const settlement = await this.repository.findByReference(ctx, reference);
    if (!settlement) throw new DomainError('settlement_not_found', 'No such settlement.');
    return settlement;
  }

  /** A tenant's settlements (none in test mode), or — `ctx` null — every account's (staff). */
  list(ctx: DeveloperContext | null, filter: SettlementListFilter): Promise<Page<SettlementEntity>> {
    return this.repository.list(ctx, filter);
  }

  /** Exports (docs/exports.md): the tenant's settlements created in [from, to), as its list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; status?: SettlementStatus; currency?: Currency }): AsyncGenerator<SettlementResponse> {
    return allPages((cursor) => this.repository.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), toSettlementResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; status?: SettlementStatus; currency?: Currency }): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /** Staff: settlements waiting for approval across every account, count and exact sum per mode and currency (the admin overview). */
  pendingApprovalTotals(): Promise<Array<{ mode: Mode; currency: Currency; count: number; amount: Amount }>> {
    return this.repository.pendingApprovalTotals();
  }

  /** Staff: any account's settlement. @throws settlement_not_found */
  async getAny(reference: string): Promise<SettlementEntity> {
    const settlement = await this.repository.findAnyByReference(reference);
    if (!settlement) throw new DomainError('settlement_not_found', 'No such settlement.');
    return settlement;
  }

  decisionsOf(settlementIds: string[]): Promise<SettlementDecisionEntity[]> {
    return this.repository.decisionsOf(settlementIds);
  }

  /**
   * A staff member approves. The one who asked may not; each person approves once. When enough
   * different people have approved, the settlement is `approved` and paid out at once (a provider
   * outage leaves it to the reconciliation scan).
   * @throws settlement_not_found, invalid_state (not pending_approval), insufficient_role (the requester), conflict (approved already by this person)
   */
  async approve(reference: string, actor: SettlementActor): Promise<SettlementEntity> {
    const { id } = await this.getAny(reference);
    const approved = await inTransaction(this.dataSource, async (manager) => {
      const settlement = await this.pendingLocked(manager, id);
      if (settlement.requestedBy === actor.userId) {
        throw new DomainError('insufficient_role', 'You requested this settlement: another person must approve it.');
      }
      const now = this.clock.now();
      await this.decide(manager, decision(id, actor.userId, 'approve', actor.ip, null, now));
      await this.recordDecision(manager, settlement, actor, 'settlement.approved', null);
      const approvals = (await this.repository.decisionsOf([id], manager)).filter((d) => d.decision === 'approve').length;
      if (approvals < settlement.approvalsRequired) return false;
      return this.repository.move(manager, id, 'approve', { approvedAt: now }, now);
    });
    if (approved) await this.payOutQuietly(id, actingRequest(actor));
    return this.repository.findById(id);
  }

  /**
   * A staff member rejects it with a reason: the reservation is released.
   * @throws settlement_not_found, invalid_state (not pending_approval), conflict (this person decided already)
   */
  async reject(reference: string, actor: SettlementActor, reason: string): Promise<SettlementEntity> {
    const { id } = await this.getAny(reference);
    await inTransaction(this.dataSource, async (manager) => {
      const settlement = await this.pendingLocked(manager, id);
      const now = this.clock.now();
      await this.decide(manager, decision(id, actor.userId, 'reject', actor.ip, reason, now));
      await this.recordDecision(manager, settlement, actor, 'settlement.rejected', reason);
      await this.repository.move(manager, id, 'reject', { rejectionReason: reason, completedAt: now }, now);
      await this.ledger.post(manager, tenantOf({ developerId: settlement.developerId, mode: 'live' }, actingRequest(actor)), {
        currency: settlement.currency,
        sourceType: 'settlement',
        sourceId: id,
        kind: 'release',
        reference: settlement.reference,
        lines: releaseReserveLines(settlement.amount, `Settlement ${settlement.reference} rejected: funds released`),
      });
    });
    return this.repository.findById(id);
  }

  /** One audit row per decision (an approval that is not yet the last one needed is recorded too). */
  private async recordDecision(manager: EntityManager, settlement: SettlementEntity, actor: SettlementActor, action: string, reason: string | null): Promise<void> {
    await this.audit.record(manager, {
      actor: actor.audit ?? { type: 'user', id: actor.userId, label: null, ip: actor.ip },
      action,
      developerId: settlement.developerId,
      target: { type: 'settlement', id: settlement.reference },
      before: { status: settlement.status },
      after: { decision: action === 'settlement.approved' ? 'approve' : 'reject', amount: settlement.amount.toString(), currency: settlement.currency, ...(reason ? { reason } : {}) },
    });
  }

  private async pendingLocked(manager: EntityManager, id: string): Promise<SettlementEntity> {
    const settlement = await this.repository.lock(manager, id);
    if (settlement.status !== 'pending_approval') throw new DomainError('invalid_state', `The settlement is ${settlement.status}, not pending_approval.`);
    return settlement;
  }

  private async decide(manager: EntityManager, row: SettlementDecisionEntity): Promise<void> {
    try {
      await this.repository.insertDecision(manager, row);
    } catch (error) {
      if (isDuplicateDecision(error)) throw new DomainError('conflict', 'You have decided on this settlement already: another person must.');
      throw error;
    }
  }

  private async payOutQuietly(id: string, within?: ServingRequest): Promise<void> {
    try {
      await this.payouts.payOut(id, within);
    } catch (error) {
      // Approved and reserved: the reconciliation scan pays it once the provider answers again.
      this.logger.warn(`settlement ${id} approved, payout not confirmed yet: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A staff member's request, which acts for no tenant of its own. */
function actingRequest(actor: SettlementActor): ServingRequest | undefined {
  return actor.requestId === undefined ? undefined : { requestId: actor.requestId };
}

function decision(settlementId: string, userId: string | null, kind: 'approve' | 'reject', ip: string | null, reason: string | null, at: Date): SettlementDecisionEntity {
  return { id: timeOrderedUuid(), settlementId, userId, decision: kind, ip, reason, createdAt: at };
}

/** Whether `amount` is at most the configured limit (none configured: nothing is). */
function withinLimit(amount: Amount, limit: string | undefined): boolean {
  return limit !== undefined && !amount.gt(Amount.parse(limit));
}

/** Whether `amount` exceeds the configured threshold (none configured: nothing does). */
function aboveLimit(amount: Amount, limit: string | undefined): boolean {
  return limit !== undefined && amount.gt(Amount.parse(limit));
}
