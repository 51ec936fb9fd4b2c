import { Injectable } from '@nestjs/common';
import { type Amount, Clock, type Currency, DomainError, newestFirst, notifyAccessChanged, type Page, type PageRequest } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { DeveloperEntity, SettlementFrequency } from './developer.entity';
import type { DeveloperFeeOverrideChangeEntity } from './developer-fee-override-change.entity';
import { type DeveloperSearch, DevelopersRepository } from './developers.repository';

export interface NewDeveloper {
  email: string;
  name: string;
  emailVerified?: boolean;
  identityVerified?: boolean;
}

/** A bank account settlements are paid into. */
export interface SettlementAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
}

/** A change to an account as the audit log records it (never a secret). */
export interface DeveloperChange {
  action: string;
  developerId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Records a change in the change's own transaction. The audit log sits above this capability (the
 * base every other one builds on), so callers hand its recorder in, bound to whoever acts.
 */
export type DeveloperChangeRecorder = (manager: EntityManager, change: DeveloperChange) => Promise<void>;

/** What a staff action on an account carries: who records it, and an optional note for the log. */
export interface StaffAction {
  record: DeveloperChangeRecorder;
  /** At most 500 characters; kept in the audit row (after.note). */
  note?: string;
}

export type DeveloperStatus = 'active' | 'suspended';

export function developerStatus(developer: DeveloperEntity): DeveloperStatus {
  return developer.suspendedAt ? 'suspended' : 'active';
}

/** Developer accounts (tenants). Provisioned by administrators and the operator CLI. */
@Injectable()
export class DevelopersService {
  constructor(
    private readonly developers: DevelopersRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** @throws conflict when the e-mail already has an account. `record`: the audit recorder of who provisions it. */
  async create(input: NewDeveloper, record?: DeveloperChangeRecorder): Promise<DeveloperEntity> {
    const now = this.clock.now();
    const row = {
      email: input.email.trim().toLowerCase(),
      name: input.name.trim(),
      emailVerifiedAt: input.emailVerified ? now : null,
      identityVerifiedAt: input.identityVerified ? now : null,
    };
    const developer = record
      ? await this.dataSource.transaction(async (m) => {
          const created = await this.developers.insert(row, m);
          if (created) {
            await record(m, { action: 'developer.provisioned', developerId: created.id, before: null, after: { email: created.email, name: created.name } });
          }
          return created;
        })
      : await this.developers.insert(row);
    if (!developer) throw new DomainError('conflict', `A developer with e-mail ${input.email} already exists.`);
    return developer;
  }

  /** In `manager`'s transaction when given. @throws developer_not_found */
  async get(id: string, manager?: EntityManager): Promise<DeveloperEntity> {
    const developer = isUuid(id) ? await this.developers.findById(id, manager) : null;
    if (!developer) throw new DomainError('developer_not_found', 'No such developer.');
    return developer;
  }

  /** Finds by id or e-mail (operators type either). @throws developer_not_found */
  async find(idOrEmail: string): Promise<DeveloperEntity> {
    if (isUuid(idOrEmail)) return this.get(idOrEmail);
    const developer = await this.developers.findByEmail(idOrEmail.trim());
    if (!developer) throw new DomainError('developer_not_found', 'No such developer.');
    return developer;
  }

  /**
   * Completes identity verification, which enables live mode. Idempotent: a verified account is
   * returned as it is, and nothing is recorded again.
   * @throws developer_not_found
   */
  verifyIdentity(id: string, staff?: StaffAction): Promise<DeveloperEntity> {
    return this.verify(id, 'identityVerifiedAt', 'developer.identity_verified', staff);
  }

  /** Marks the account's e-mail verified (test mode). Idempotent. @throws developer_not_found */
  verifyEmail(id: string, staff?: StaffAction): Promise<DeveloperEntity> {
    return this.verify(id, 'emailVerifiedAt', 'developer.email_verified', staff);
  }

  /**
   * Suspends the account: its keys get 403 `account_suspended` on every API instance at once, its
   * members' account routes in the portal too.
   * @throws developer_not_found, invalid_state (already suspended), validation_error (no reason)
   */
  async suspend(id: string, reason: string, staff: StaffAction): Promise<DeveloperEntity> {
    const why = reason.trim();
    if (!why) throw new DomainError('validation_error', 'A suspension needs a reason.', { reason: ['must not be empty'] });
    return this.changeStatus(id, 'suspended', staff, (developer) => {
      developer.suspendedAt = this.clock.now();
      developer.suspensionReason = why;
    });
  }

  /** Lifts a suspension. @throws developer_not_found, invalid_state (the account is active) */
  reactivate(id: string, staff: StaffAction): Promise<DeveloperEntity> {
    return this.changeStatus(id, 'active', staff, (developer) => {
      developer.suspendedAt = null;
      developer.suspensionReason = null;
    });
  }

  /** Accounts, newest first, by part of the name or e-mail and by status. @throws validation_error (cursor) */
  async search(search: DeveloperSearch, request: PageRequest): Promise<Page<DeveloperEntity>> {
    const page = newestFirst.page(request);
    const rows = await this.developers.search(search, page);
    return page.toPage(rows, (row) => row.developer, (row) => ({ createdAt: row.cursorAt, id: row.developer.id }));
  }

  private async verify(id: string, field: 'emailVerifiedAt' | 'identityVerifiedAt', action: string, staff?: StaffAction): Promise<DeveloperEntity> {
    await this.get(id);
    return this.dataSource.transaction(async (m) => {
      const developer = await this.lockOrFail(m, id);
      if (developer[field]) return developer;
      developer[field] = this.clock.now();
      await this.developers.save(m, developer);
      // Verification decides which modes a developer's keys may use: API instances must know at once.
      await notifyAccessChanged(m, `developer:${developer.id}`);
      await staff?.record(m, {
        action,
        developerId: developer.id,
        before: { [snake(field)]: null },
        after: { [snake(field)]: developer[field]?.toISOString(), ...(staff.note ? { note: staff.note } : {}) },
      });
      return developer;
    });
  }

  private async changeStatus(id: string, to: DeveloperStatus, staff: StaffAction, apply: (developer: DeveloperEntity) => void): Promise<DeveloperEntity> {
    await this.get(id);
    return this.dataSource.transaction(async (m) => {
      const developer = await this.lockOrFail(m, id);
      const from = developerStatus(developer);
      if (from === to) throw new DomainError('invalid_state', `The account is ${from}: it cannot be ${to === 'suspended' ? 'suspended' : 'reactivated'}.`);
      const before = statusState(developer);
      apply(developer);
      await this.developers.save(m, developer);
      await notifyAccessChanged(m, `developer:${developer.id}`);
      await staff.record(m, {
        action: to === 'suspended' ? 'developer.suspended' : 'developer.reactivated',
        developerId: developer.id,
        before,
        after: { ...statusState(developer), ...(staff.note ? { note: staff.note } : {}) },
      });
      return developer;
    });
  }

  private async lockOrFail(m: EntityManager, id: string): Promise<DeveloperEntity> {
    const developer = await this.developers.lock(m, id);
    if (!developer) throw new DomainError('developer_not_found', 'No such developer.');
    return developer;
  }

  /**
   * Where the developer's settlements are paid: a bank account whose holder's name the caller
   * resolved at the bank (the settlements capability does, through the provider).
   * @throws developer_not_found
   */
  async setSettlementAccount(id: string, account: SettlementAccount, record?: DeveloperChangeRecorder): Promise<DeveloperEntity> {
    await this.get(id);
    await this.dataSource.transaction(async (m) => {
      const developer = await this.lockOrFail(m, id);
      const before = bankAccountState(developer.settlementBankCode, developer.settlementAccountNumber, developer.settlementAccountName);
      await this.developers.updateSettlementSettings(id, { settlementBankCode: account.bankCode, settlementAccountNumber: account.accountNumber, settlementAccountName: account.accountName }, m);
      await record?.(m, {
        action: 'bank_account.changed',
        developerId: id,
        before,
        after: bankAccountState(account.bankCode, account.accountNumber, account.accountName),
      });
    });
    return this.get(id);
  }

  /** `daily`, `weekly` or `manual` (the default). @throws developer_not_found */
  async setAutoSettlementFrequency(id: string, frequency: SettlementFrequency): Promise<DeveloperEntity> {
    await this.get(id);
    await this.developers.updateSettlementSettings(id, { autoSettlementFrequency: frequency });
    return this.get(id);
  }

  /** The developers the auto-settlement run of `frequency` settles (identity verified, with a settlement account). */
  autoSettling(frequency: 'daily' | 'weekly'): Promise<DeveloperEntity[]> {
    return this.developers.findAutoSettling(frequency);
  }

  /**
   * Sets the platform fee this developer pays per successful transaction in `currency` (0 allowed).
   * Every change is kept (feeHistory) with who made it.
   * @throws validation_error (negative), developer_not_found
   */
  async setFeeOverride(id: string, currency: Currency, amount: Amount, changedBy = 'system', record?: DeveloperChangeRecorder): Promise<void> {
    if (amount.isNegative()) throw new DomainError('validation_error', 'The fee cannot be negative.', { amount: ['must not be negative'] });
    await this.get(id);
    await this.dataSource.transaction(async (m) => {
      // The account's row lock orders concurrent changes, so each one's previous amount is exact.
      await this.lockOrFail(m, id);
      const previous = await this.developers.findFeeOverride(id, currency, m);
      await this.developers.upsertFeeOverride(m, id, currency, amount);
      await this.developers.insertFeeChange(m, { developerId: id, currency, amount, previousAmount: previous, changedBy, changedAt: this.clock.now() });
      await record?.(m, {
        action: 'fee_override.set',
        developerId: id,
        before: { currency, amount: previous?.toString() ?? null },
        after: { currency, amount: amount.toString() },
      });
    });
  }

  /** Every fee override change of the account, newest first. @throws developer_not_found */
  async feeHistory(id: string): Promise<DeveloperFeeOverrideChangeEntity[]> {
    await this.get(id);
    return this.developers.feeHistory(id);
  }

  feeOverride(id: string, currency: Currency): Promise<Amount | null> {
    return this.developers.findFeeOverride(id, currency);
  }
}

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function statusState(developer: DeveloperEntity): Record<string, unknown> {
  return { status: developerStatus(developer), suspended_at: developer.suspendedAt?.toISOString() ?? null, suspension_reason: developer.suspensionReason };
}

/** The audit log keeps the bank and holder, and only the last four digits of the account number. */
function bankAccountState(bankCode: string | null, accountNumber: string | null, accountName: string | null): Record<string, unknown> | null {
  if (!accountNumber) return null;
  return { bank_code: bankCode, account_number_last4: accountNumber.slice(-4), account_name: accountName };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
