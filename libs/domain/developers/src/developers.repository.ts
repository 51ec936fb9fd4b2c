import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Amount, Currency } from '@gateway/platform';
import { type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { DeveloperEntity } from './developer.entity';
import { DeveloperFeeOverrideEntity } from './developer-fee-override.entity';

/** The columns of a new developer; the database fills in the rest. */
export type NewDeveloperRow = Pick<DeveloperEntity, 'email' | 'name' | 'emailVerifiedAt' | 'identityVerifiedAt'>;

/** Developer accounts and their fee overrides. A developer is the tenant itself, so nothing here takes a DeveloperContext. */
@Injectable()
export class DevelopersRepository {
  constructor(
    @InjectRepository(DeveloperEntity) private readonly developers: Repository<DeveloperEntity>,
    @InjectRepository(DeveloperFeeOverrideEntity) private readonly fees: Repository<DeveloperFeeOverrideEntity>,
  ) {}

  /** Inserts the developer; null when a unique key (the e-mail) is taken already. */
  async insert(row: NewDeveloperRow): Promise<DeveloperEntity | null> {
    try {
      return await this.developers.save(this.developers.create(row));
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') return null;
      throw error;
    }
  }

  findById(id: string): Promise<DeveloperEntity | null> {
    return this.developers.findOneBy({ id });
  }

  /** By e-mail, case-insensitive. */
  findByEmail(email: string): Promise<DeveloperEntity | null> {
    return this.developers.createQueryBuilder('d').where('lower(d.email) = lower(:email)', { email }).getOne();
  }

  /** Writes the developer's changed columns (verification times). */
  async save(manager: EntityManager, developer: DeveloperEntity): Promise<void> {
    await manager.save(developer);
  }

  /** Writes where the developer's settlements are paid (the columns given only). */
  async updateSettlementSettings(id: string, changes: Partial<Pick<DeveloperEntity, 'settlementBankCode' | 'settlementAccountNumber' | 'settlementAccountName' | 'autoSettlementFrequency'>>): Promise<void> {
    await this.developers.update({ id }, changes);
  }

  /** Identity-verified developers settling automatically at `frequency` to a bank account they have set. */
  findAutoSettling(frequency: 'daily' | 'weekly'): Promise<DeveloperEntity[]> {
    return this.developers
      .createQueryBuilder('d')
      .where('d.auto_settlement_frequency = :frequency AND d.identity_verified_at IS NOT NULL AND d.settlement_account_number IS NOT NULL', { frequency })
      .orderBy('d.id')
      .getMany();
  }

  /** Sets the developer's platform fee for `currency`, replacing any earlier one. */
  async upsertFeeOverride(developerId: string, currency: Currency, amount: Amount): Promise<void> {
    await this.fees.upsert({ developerId, currency, amount }, ['developerId', 'currency']);
  }

  /** The developer's platform fee for `currency`; null when none is set. */
  async findFeeOverride(developerId: string, currency: Currency): Promise<Amount | null> {
    const row = await this.fees.findOneBy({ developerId, currency });
    return row?.amount ?? null;
  }
}
