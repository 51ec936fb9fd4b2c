import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import { type EntityManager, In, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SubaccountEntity } from './subaccount.entity';

export interface SubaccountListFilter {
  limit: number;
  cursor?: string;
}

/** The columns of a new sub-account besides its tenant; the database draws its id. */
export type NewSubaccountRow = Omit<SubaccountEntity, 'id' | 'developerId' | 'mode'>;

/** Sub-account rows, always scoped by developer and mode. */
@Injectable()
export class SubaccountsRepository {
  constructor(@InjectRepository(SubaccountEntity) private readonly subaccounts: Repository<SubaccountEntity>) {}

  /** Inserts unless the tenant has this bank account (or, improbably, this code) already; null when ignored. */
  async insertIfAbsent(ctx: DeveloperContext, row: NewSubaccountRow): Promise<SubaccountEntity | null> {
    const result = await this.subaccounts
      .createQueryBuilder()
      .insert()
      .into(SubaccountEntity)
      .values({
        developerId: ctx.developerId,
        mode: ctx.mode,
        code: row.code,
        businessName: row.businessName,
        bankCode: row.bankCode,
        accountNumber: row.accountNumber,
        accountName: row.accountName,
        description: row.description,
        active: row.active,
        metadata: row.metadata as QueryDeepPartialEntity<SubaccountEntity>['metadata'],
        createdAt: row.createdAt,
      })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (result.raw as Array<{ id: string }>)[0]?.id;
    return id ? this.subaccounts.findOneByOrFail({ id }) : null;
  }

  /** The tenant's sub-account for this bank account, if any. */
  findByBankAccount(ctx: DeveloperContext, bankCode: string, accountNumber: string): Promise<SubaccountEntity | null> {
    return this.subaccounts.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, bankCode, accountNumber });
  }

  findByCode(ctx: DeveloperContext, code: string): Promise<SubaccountEntity | null> {
    return this.subaccounts.findOneBy({ code, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** The tenant's sub-accounts among these codes (at least one; active or not), in the caller's transaction when a manager is given. */
  findByCodes(ctx: DeveloperContext, codes: string[], manager: EntityManager = this.subaccounts.manager): Promise<SubaccountEntity[]> {
    return manager.getRepository(SubaccountEntity).findBy({ developerId: ctx.developerId, mode: ctx.mode, code: In(codes) });
  }

  /** Newest first, keyset-paginated. @throws validation_error for a cursor this API did not issue */
  async list(ctx: DeveloperContext, filter: SubaccountListFilter): Promise<Page<SubaccountEntity>> {
    const page = newestFirst.page(filter);
    const query = this.subaccounts.createQueryBuilder('s').where('s.developer_id = :developerId AND s.mode = :mode', { developerId: ctx.developerId, mode: ctx.mode });
    return page.toPage(await page.applyTo(query, 's').getMany(), (s) => s);
  }
}
