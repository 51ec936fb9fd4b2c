import { Injectable } from '@nestjs/common';
import { type Amount, Clock, type Currency, DomainError, notifyAccessChanged } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { DeveloperEntity, SettlementFrequency } from './developer.entity';
import { DevelopersRepository } from './developers.repository';

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

/** Developer accounts (tenants). Provisioned by administrators and the operator CLI. */
@Injectable()
export class DevelopersService {
  constructor(
    private readonly developers: DevelopersRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** @throws conflict when the e-mail already has an account. */
  async create(input: NewDeveloper): Promise<DeveloperEntity> {
    const now = this.clock.now();
    const developer = await this.developers.insert({
      email: input.email.trim().toLowerCase(),
      name: input.name.trim(),
      emailVerifiedAt: input.emailVerified ? now : null,
      identityVerifiedAt: input.identityVerified ? now : null,
    });
    if (!developer) throw new DomainError('conflict', `A developer with e-mail ${input.email} already exists.`);
    return developer;
  }

  /** @throws developer_not_found */
  async get(id: string): Promise<DeveloperEntity> {
    const developer = isUuid(id) ? await this.developers.findById(id) : null;
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

  /** Completes identity verification, which enables live mode. Idempotent. */
  async verifyIdentity(id: string): Promise<DeveloperEntity> {
    const developer = await this.get(id);
    if (!developer.identityVerifiedAt) {
      developer.identityVerifiedAt = this.clock.now();
      await this.saveAndAnnounce(developer);
    }
    return developer;
  }

  async verifyEmail(id: string): Promise<DeveloperEntity> {
    const developer = await this.get(id);
    if (!developer.emailVerifiedAt) {
      developer.emailVerifiedAt = this.clock.now();
      await this.saveAndAnnounce(developer);
    }
    return developer;
  }

  /** Verification decides which modes a developer's keys may use: API instances must know at once. */
  private async saveAndAnnounce(developer: DeveloperEntity): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await this.developers.save(m, developer);
      await notifyAccessChanged(m, `developer:${developer.id}`);
    });
  }

  /**
   * Where the developer's settlements are paid: a bank account whose holder's name the caller
   * resolved at the bank (the settlements capability does, through the provider).
   * @throws developer_not_found
   */
  async setSettlementAccount(id: string, account: SettlementAccount): Promise<DeveloperEntity> {
    await this.get(id);
    await this.developers.updateSettlementSettings(id, { settlementBankCode: account.bankCode, settlementAccountNumber: account.accountNumber, settlementAccountName: account.accountName });
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

  /** Sets the platform fee this developer pays per successful transaction in `currency` (0 allowed). */
  async setFeeOverride(id: string, currency: Currency, amount: Amount): Promise<void> {
    if (amount.isNegative()) throw new DomainError('validation_error', 'The fee cannot be negative.', { amount: ['must not be negative'] });
    await this.get(id);
    await this.developers.upsertFeeOverride(id, currency, amount);
  }

  feeOverride(id: string, currency: Currency): Promise<Amount | null> {
    return this.developers.findFeeOverride(id, currency);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
