import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Amount, Currency, NewestFirstPage } from '@gateway/platform';
import { type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { DeveloperEntity } from './developer.entity';
import { DeveloperFeeOverrideEntity } from './developer-fee-override.entity';
import { DeveloperFeeOverrideChangeEntity } from './developer-fee-override-change.entity';

/** The columns of a new developer; the database fills in the rest. */
export type NewDeveloperRow = Pick<DeveloperEntity, 'email' | 'name' | 'emailVerifiedAt' | 'identityVerifiedAt'>;

export type NewFeeOverrideChangeRow = Pick<DeveloperFeeOverrideChangeEntity, 'developerId' | 'currency' | 'amount' | 'previousAmount' | 'changedBy' | 'changedAt'>;

export interface DeveloperSearch {
  /** Part of the name or e-mail, case-insensitive (served by trigram indexes). */
  q?: string;
  status?: 'active' | 'suspended';
}

/** Developer accounts and their fee overrides. A developer is the tenant itself, so nothing here takes a DeveloperContext. */
@Injectable()
export class DevelopersRepository {
  constructor(
    @InjectRepository(DeveloperEntity) private readonly developers: Repository<DeveloperEntity>,
    @InjectRepository(DeveloperFeeOverrideEntity) private readonly fees: Repository<DeveloperFeeOverrideEntity>,
    @InjectRepository(DeveloperFeeOverrideChangeEntity) private readonly feeChanges: Repository<DeveloperFeeOverrideChangeEntity>,
  ) {}

  /** Inserts the developer; null when a unique key (the e-mail) is taken already. */
  async insert(row: NewDeveloperRow, manager: EntityManager = this.developers.manager): Promise<DeveloperEntity | null> {
    const developers = manager.getRepository(DeveloperEntity);
    try {
      return await developers.save(developers.create(row));
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') return null;
      throw error;
    }
  }

  findById(id: string, manager: EntityManager = this.developers.manager): Promise<DeveloperEntity | null> {
    return manager.findOneBy(DeveloperEntity, { id });
  }

  /** findById, with the row locked until the transaction ends (status changes). */
  lock(manager: EntityManager, id: string): Promise<DeveloperEntity | null> {
    return manager.findOne(DeveloperEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** By e-mail, case-insensitive. */
  findByEmail(email: string): Promise<DeveloperEntity | null> {
    return this.developers.createQueryBuilder('d').where('lower(d.email) = lower(:email)', { email }).getOne();
  }

  /** One page of accounts, newest first; rows carry created_at to the microsecond for the cursor. */
  async search(search: DeveloperSearch, page: NewestFirstPage): Promise<Array<{ developer: DeveloperEntity; cursorAt: string }>> {
    const query = this.developers
      .createQueryBuilder('d')
      .addSelect(`to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, 'cursor_at')
      .where('1 = 1');
    if (search.q) {
      const pattern = `%${escapeLike(search.q.trim().toLowerCase())}%`;
      query.andWhere(`(lower(d.name) LIKE :pattern ESCAPE '\\' OR lower(d.email) LIKE :pattern ESCAPE '\\')`, { pattern });
    }
    if (search.status === 'suspended') query.andWhere('d.suspended_at IS NOT NULL');
    if (search.status === 'active') query.andWhere('d.suspended_at IS NULL');
    page.applyTo(query, 'd');
    const { entities, raw } = await query.getRawAndEntities<{ cursor_at: string; d_id: string }>();
    const cursorOf = new Map(raw.map((r) => [r.d_id, r.cursor_at]));
    return entities.map((developer) => ({ developer, cursorAt: cursorOf.get(developer.id) ?? developer.createdAt.toISOString() }));
  }

  /** Writes the developer's changed columns (verification times, suspension). */
  async save(manager: EntityManager, developer: DeveloperEntity): Promise<void> {
    await manager.save(developer);
  }

  /** Writes where the developer's settlements are paid (the columns given only). */
  async updateSettlementSettings(
    id: string,
    changes: Partial<Pick<DeveloperEntity, 'settlementBankCode' | 'settlementAccountNumber' | 'settlementAccountName' | 'autoSettlementFrequency'>>,
    manager: EntityManager = this.developers.manager,
  ): Promise<void> {
    await manager.update(DeveloperEntity, { id }, changes);
  }

  /** Identity-verified, active developers settling automatically at `frequency` to a bank account they have set. */
  findAutoSettling(frequency: 'daily' | 'weekly'): Promise<DeveloperEntity[]> {
    return this.developers
      .createQueryBuilder('d')
      .where('d.auto_settlement_frequency = :frequency AND d.identity_verified_at IS NOT NULL AND d.settlement_account_number IS NOT NULL', { frequency })
      .andWhere('d.suspended_at IS NULL')
      .orderBy('d.id')
      .getMany();
  }

  /** Sets the developer's platform fee for `currency`, replacing any earlier one. */
  async upsertFeeOverride(manager: EntityManager, developerId: string, currency: Currency, amount: Amount): Promise<void> {
    await manager.getRepository(DeveloperFeeOverrideEntity).upsert({ developerId, currency, amount }, ['developerId', 'currency']);
  }

  /** The developer's platform fee for `currency`; null when none is set. */
  async findFeeOverride(developerId: string, currency: Currency, manager: EntityManager = this.fees.manager): Promise<Amount | null> {
    const row = await manager.findOneBy(DeveloperFeeOverrideEntity, { developerId, currency });
    return row?.amount ?? null;
  }

  async insertFeeChange(manager: EntityManager, row: NewFeeOverrideChangeRow): Promise<void> {
    await manager.getRepository(DeveloperFeeOverrideChangeEntity).insert(row);
  }

  /** Every fee change of the developer, newest first. */
  feeHistory(developerId: string): Promise<DeveloperFeeOverrideChangeEntity[]> {
    return this.feeChanges.find({ where: { developerId }, order: { seq: 'DESC' } });
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
