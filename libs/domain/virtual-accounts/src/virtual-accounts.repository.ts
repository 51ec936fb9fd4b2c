import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode, VirtualAccountStatus } from '@gateway/contracts';
import { type DeveloperContext, fromStatesOf, newestFirst, type Page, targetOf } from '@gateway/platform';
import { type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { VirtualAccountDepositEntity, VirtualAccountEntity } from './virtual-account.entities';
import { VIRTUAL_ACCOUNT_TRANSITIONS, type VirtualAccountTransition } from './virtual-account-status';

export interface VirtualAccountListFilter {
  limit: number;
  cursor?: string;
  status?: VirtualAccountStatus;
  customerReference?: string;
}

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** Which unique index refused an account: the customer's active one, or the provider's number held by another active account. */
export type AccountConflict = 'customer' | 'number';

/**
 * Virtual account and deposit rows. Tenant reads take a DeveloperContext; the provider's deposit
 * callbacks know a mode and an account number only, and the unmatched deposits belong to no tenant.
 */
@Injectable()
export class VirtualAccountsRepository {
  constructor(
    @InjectRepository(VirtualAccountEntity) private readonly accounts: Repository<VirtualAccountEntity>,
    @InjectRepository(VirtualAccountDepositEntity) private readonly deposits: Repository<VirtualAccountDepositEntity>,
  ) {}

  findByPublicId(ctx: DeveloperContext, publicId: string): Promise<VirtualAccountEntity | null> {
    return this.accounts.findOneBy({ publicId, developerId: ctx.developerId, mode: ctx.mode });
  }

  findActiveOfCustomer(ctx: DeveloperContext, customerId: string): Promise<VirtualAccountEntity | null> {
    return this.accounts.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, customerId, status: 'active' });
  }

  /** Whether another developer has ever held `accountNumber` in this mode (an account number never moves between merchants). */
  async numberHeldByAnotherDeveloper(ctx: DeveloperContext, accountNumber: string): Promise<boolean> {
    const other = await this.accounts
      .createQueryBuilder('a')
      .where('a.mode = :mode AND a.account_number = :accountNumber AND a.developer_id <> :developerId', { mode: ctx.mode, accountNumber, developerId: ctx.developerId })
      .getExists();
    return other;
  }

  /**
   * The account a deposit into `accountNumber` belongs to: the active one, else the one most
   * recently deactivated (the provider still routes its number to us: the money is ours to credit).
   */
  async findForDeposit(mode: Mode, accountNumber: string): Promise<VirtualAccountEntity | null> {
    return this.accounts
      .createQueryBuilder('a')
      .where('a.mode = :mode AND a.account_number = :accountNumber', { mode, accountNumber })
      .orderBy(`CASE WHEN a.status = 'active' THEN 0 ELSE 1 END`)
      .addOrderBy('a.deactivated_at', 'DESC', 'NULLS LAST')
      .addOrderBy('a.created_at', 'DESC')
      .getOne();
  }

  async list(ctx: DeveloperContext, filter: VirtualAccountListFilter): Promise<Page<VirtualAccountEntity>> {
    const page = newestFirst.page(filter);
    const query = this.accounts.createQueryBuilder('a').where('a.developer_id = :developerId AND a.mode = :mode', ctx);
    if (filter.status) query.andWhere('a.status = :status', { status: filter.status });
    if (filter.customerReference) query.andWhere('a.customer_reference = :customerReference', { customerReference: filter.customerReference });
    return page.toPage(await page.applyTo(query, 'a').getMany(), (a) => a);
  }

  /** @throws QueryFailedError — see accountConflict */
  insert(account: VirtualAccountEntity): Promise<VirtualAccountEntity> {
    return this.accounts.save(this.accounts.create(account));
  }

  /** Moves the account along `transition`; null when its status does not allow it (the row is then unchanged). */
  async transition(ctx: DeveloperContext, id: string, transition: VirtualAccountTransition, now: Date): Promise<VirtualAccountEntity | null> {
    const [rows] = (await this.accounts.query(
      `UPDATE virtual_accounts SET status = $4, deactivated_at = $5, updated_at = $5
        WHERE id = $1 AND developer_id = $2 AND mode = $3 AND status = ANY ($6::text[]) RETURNING id`,
      [id, ctx.developerId, ctx.mode, targetOf(VIRTUAL_ACCOUNT_TRANSITIONS, transition), now, fromStatesOf(VIRTUAL_ACCOUNT_TRANSITIONS, transition)],
    )) as [Array<{ id: string }>, number];
    return rows.length > 0 ? this.accounts.findOneByOrFail({ id }) : null;
  }

  /**
   * Records a deposit unless the provider's transaction was recorded already (`ON CONFLICT DO
   * NOTHING` on the unique provider transaction id). A concurrent insert of the same deposit
   * waits for the first to commit, then records nothing: false means "recorded before".
   */
  async insertDepositOnce(manager: EntityManager, deposit: VirtualAccountDepositEntity): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(VirtualAccountDepositEntity)
      .values(deposit)
      .orIgnore()
      .returning('id')
      .execute();
    return result.raw.length > 0;
  }

  findDepositByProviderTransaction(mode: Mode, providerTransactionId: string): Promise<VirtualAccountDepositEntity | null> {
    return this.deposits.findOneBy({ mode, providerTransactionId });
  }

  async listDeposits(ctx: DeveloperContext, virtualAccountId: string, query: PageQuery): Promise<Page<VirtualAccountDepositEntity>> {
    const page = newestFirst.page(query);
    const builder = this.deposits
      .createQueryBuilder('d')
      .where('d.developer_id = :developerId AND d.mode = :mode AND d.virtual_account_id = :virtualAccountId', { ...ctx, virtualAccountId });
    return page.toPage(await page.applyTo(builder, 'd').getMany(), (d) => d);
  }

  /** Deposits matched to no account, every tenant and mode: for platform staff. */
  async listUnmatched(query: PageQuery): Promise<Page<VirtualAccountDepositEntity>> {
    const page = newestFirst.page(query);
    const builder = this.deposits.createQueryBuilder('d').where('d.virtual_account_id IS NULL');
    return page.toPage(await page.applyTo(builder, 'd').getMany(), (d) => d);
  }
}

/** Which one-active rule refused an insert; null when the error is something else. */
export function accountConflict(error: unknown): AccountConflict | null {
  if (!(error instanceof QueryFailedError)) return null;
  const constraint = (error.driverError as { constraint?: string } | undefined)?.constraint;
  if (constraint === 'virtual_accounts_one_active_per_customer') return 'customer';
  if (constraint === 'virtual_accounts_active_number') return 'number';
  return null;
}
