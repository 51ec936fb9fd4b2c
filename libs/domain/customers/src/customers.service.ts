import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EventsService } from '@gateway/domain/webhooks';
import { Clock, type DeveloperContext, DomainError, inTransaction, newestFirst, type Page } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { type EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CustomerEntity } from './customer.entity';
import { toCustomerResponse } from './customer.mapper';

export interface NewCustomer {
  email: string;
  name?: string;
  phone?: string;
  metadata?: Record<string, unknown>;
}

export interface CustomerListFilter {
  limit: number;
  cursor?: string;
  email?: string;
}

/** Customers of a developer, per mode. E-mail is unique per developer and mode (case-insensitive). */
@Injectable()
export class CustomersService {
  constructor(
    @InjectRepository(CustomerEntity) private readonly customers: Repository<CustomerEntity>,
    private readonly clock: Clock,
    private readonly events: EventsService,
  ) {}

  /** @throws customer_exists */
  async create(ctx: DeveloperContext, input: NewCustomer): Promise<CustomerEntity> {
    // The customer and its customer.created event commit together.
    const created = await inTransaction(this.customers.manager.connection, async (m) => {
      const customer = await this.insertIfAbsent(m, ctx, input);
      if (customer) await this.events.emit(m, ctx, 'customer.created', { ...toCustomerResponse(customer) });
      return customer;
    });
    if (!created) throw new DomainError('customer_exists', `A customer with e-mail ${input.email} already exists.`);
    return created;
  }

  /**
   * The customer with this e-mail, created when new (payments create customers automatically).
   * Safe under concurrency: the unique index decides, the loser reads the winner's row.
   * Runs in the caller's transaction when a manager is given.
   */
  async findOrCreateByEmail(ctx: DeveloperContext, email: string, manager?: EntityManager): Promise<{ customer: CustomerEntity; created: boolean }> {
    // Without a caller's transaction, one of our own: a new customer and its event commit together.
    if (!manager) return inTransaction(this.customers.manager.connection, (m) => this.findOrCreateByEmail(ctx, email, m));
    const created = await this.insertIfAbsent(manager, ctx, { email });
    if (created) await this.events.emit(manager, ctx, 'customer.created', { ...toCustomerResponse(created) });
    if (created) return { customer: created, created: true };
    const existing = await manager
      .getRepository(CustomerEntity)
      .createQueryBuilder('c')
      .where('c.developer_id = :developerId AND c.mode = :mode AND lower(c.email) = lower(:email)', { ...ctx, email: email.trim() })
      .getOneOrFail();
    return { customer: existing, created: false };
  }

  /** @throws customer_not_found (also for another developer's or the other mode's customer) */
  async get(ctx: DeveloperContext, reference: string): Promise<CustomerEntity> {
    const customer = await this.customers.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
    if (!customer) throw new DomainError('customer_not_found', 'No such customer.');
    return customer;
  }

  /** By internal id, for capabilities that stored it. @throws customer_not_found */
  async getById(ctx: DeveloperContext, id: string, manager: EntityManager = this.customers.manager): Promise<CustomerEntity> {
    const customer = await manager.getRepository(CustomerEntity).findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
    if (!customer) throw new DomainError('customer_not_found', 'No such customer.');
    return customer;
  }

  async list(ctx: DeveloperContext, filter: CustomerListFilter): Promise<Page<CustomerEntity>> {
    const page = newestFirst.page(filter);
    const query = this.customers.createQueryBuilder('c').where('c.developer_id = :developerId AND c.mode = :mode', ctx);
    if (filter.email) query.andWhere('lower(c.email) = lower(:email)', { email: filter.email });
    return page.toPage(await page.applyTo(query, 'c').getMany(), (c) => c);
  }

  private async insertIfAbsent(manager: EntityManager, ctx: DeveloperContext, input: NewCustomer): Promise<CustomerEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(CustomerEntity)
      .values({
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: `CUS_${randomBytes(8).toString('hex')}`,
        email: input.email.trim(),
        name: input.name ?? null,
        phone: input.phone ?? null,
        metadata: (input.metadata ?? {}) as QueryDeepPartialEntity<CustomerEntity>['metadata'],
        createdAt: this.clock.now(),
      })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (result.raw as Array<{ id: string }>)[0]?.id;
    return id ? manager.getRepository(CustomerEntity).findOneByOrFail({ id }) : null;
  }
}
