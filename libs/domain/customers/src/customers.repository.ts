import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page, preparedStatement, runStatement } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CustomerEntity } from './customer.entity';

export interface CustomerListFilter {
  limit: number;
  cursor?: string;
  email?: string;
  /** Exports: created in [from, to). */
  from?: Date;
  to?: Date;
}

/** The columns of a new customer besides its tenant; the database draws its id. */
export type NewCustomerRow = Pick<CustomerEntity, 'reference' | 'email' | 'name' | 'phone' | 'metadata' | 'createdAt'>;

/**
 * A payment's customer by e-mail, created on first sight, in one round trip (initialize's hot path):
 * the new row, or the tenant's existing one. `created` says which.
 */
const FIND_OR_INSERT_BY_EMAIL = preparedStatement(
  'customers.find-or-insert-by-email',
  `WITH inserted AS (
    INSERT INTO customers AS c (developer_id, mode, reference, email, name, phone, metadata, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
    ON CONFLICT DO NOTHING
    RETURNING c.id, c.developer_id, c.mode, c.reference, c.email, c.name, c.phone, c.metadata, c.created_at, true AS created)
  SELECT * FROM inserted
  UNION ALL
  SELECT c.id, c.developer_id, c.mode, c.reference, c.email, c.name, c.phone, c.metadata, c.created_at, false
    FROM customers c WHERE c.developer_id = $1 AND c.mode = $2 AND lower(c.email) = lower($4)
  LIMIT 1`,
);

/**
 * The find-or-insert as CTEs of a caller's one statement (a payment's initialize): `customer` is the
 * tenant's customer with this e-mail (id, reference), inserted when new (`inserted_customer` then
 * holds it). Parameters $1–$8 as FIND_OR_INSERT_BY_EMAIL's (findOrInsertParameters). Empty when
 * a concurrent transaction inserted it after the statement's snapshot: the caller runs it again.
 */
export const FIND_OR_INSERT_CTES = `inserted_customer AS (
    INSERT INTO customers AS c (developer_id, mode, reference, email, name, phone, metadata, created_at)
    VALUES ($1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING c.id, c.reference
  ), customer AS (
    SELECT id, reference FROM inserted_customer
    UNION ALL
    SELECT c.id, c.reference FROM customers c WHERE c.developer_id = $1::uuid AND c.mode = $2::text AND lower(c.email) = lower($4::text)
    LIMIT 1
  )`;

export const FIND_OR_INSERT_PARAMETERS = 8;

/** The parameters of FIND_OR_INSERT_BY_EMAIL and FIND_OR_INSERT_CTES. */
export function findOrInsertParameters(ctx: DeveloperContext, row: NewCustomerRow): unknown[] {
  return [ctx.developerId, ctx.mode, row.reference, row.email, row.name, row.phone, JSON.stringify(row.metadata), row.createdAt];
}

interface CustomerRow {
  id: string;
  developer_id: string;
  mode: CustomerEntity['mode'];
  reference: string;
  email: string;
  name: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  created: boolean;
}

/** Customer rows, always scoped by developer and mode. */
@Injectable()
export class CustomersRepository {
  constructor(@InjectRepository(CustomerEntity) private readonly customers: Repository<CustomerEntity>) {}

  /** Inserts unless the tenant has a customer with this e-mail already (case-insensitive unique index); null when it has. */
  async insertIfAbsent(manager: EntityManager, ctx: DeveloperContext, row: NewCustomerRow): Promise<CustomerEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(CustomerEntity)
      .values({
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: row.reference,
        email: row.email,
        name: row.name,
        phone: row.phone,
        metadata: row.metadata as QueryDeepPartialEntity<CustomerEntity>['metadata'],
        createdAt: row.createdAt,
      })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (result.raw as Array<{ id: string }>)[0]?.id;
    return id ? manager.getRepository(CustomerEntity).findOneByOrFail({ id }) : null;
  }

  /**
   * The tenant's customer with this e-mail (case-insensitive), inserted from `row` when it has none.
   * Null when another transaction inserted that e-mail after this statement began (its row is not
   * in this statement's snapshot): findByEmailOrFail then sees it.
   */
  async findOrInsertByEmail(manager: EntityManager, ctx: DeveloperContext, row: NewCustomerRow): Promise<{ customer: CustomerEntity; created: boolean } | null> {
    const { rows } = await runStatement<CustomerRow>(manager, FIND_OR_INSERT_BY_EMAIL, findOrInsertParameters(ctx, row));
    const r = rows[0];
    if (!r) return null;
    const customer = Object.assign(new CustomerEntity(), {
      id: r.id,
      developerId: r.developer_id,
      mode: r.mode,
      reference: r.reference,
      email: r.email,
      name: r.name,
      phone: r.phone,
      metadata: r.metadata,
      createdAt: r.created_at,
    });
    return { customer, created: r.created };
  }

  /** The tenant's customer with this e-mail (case-insensitive); throws EntityNotFoundError when there is none. */
  findByEmailOrFail(manager: EntityManager, ctx: DeveloperContext, email: string): Promise<CustomerEntity> {
    return manager
      .getRepository(CustomerEntity)
      .createQueryBuilder('c')
      .where('c.developer_id = :developerId AND c.mode = :mode AND lower(c.email) = lower(:email)', { ...ctx, email })
      .getOneOrFail();
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<CustomerEntity | null> {
    return this.customers.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** By internal id, in the caller's transaction when a manager is given. */
  findById(ctx: DeveloperContext, id: string, manager: EntityManager = this.customers.manager): Promise<CustomerEntity | null> {
    return manager.getRepository(CustomerEntity).findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** Newest first, keyset-paginated; optionally one e-mail (case-insensitive). @throws validation_error for a cursor this API did not issue */
  async list(ctx: DeveloperContext, filter: CustomerListFilter): Promise<Page<CustomerEntity>> {
    const page = newestFirst.page(filter);
    const query = this.customers.createQueryBuilder('c').where('c.developer_id = :developerId AND c.mode = :mode', ctx);
    if (filter.email) query.andWhere('lower(c.email) = lower(:email)', { email: filter.email });
    if (filter.from) query.andWhere('c.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('c.created_at < :to', { to: filter.to });
    return page.toPage(await page.applyTo(query, 'c').getMany(), (c) => c);
  }

  /** How many customers the list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date }): Promise<number> {
    return this.customers
      .createQueryBuilder('c')
      .where('c.developer_id = :developerId AND c.mode = :mode', ctx)
      .andWhere('c.created_at >= :from AND c.created_at < :to', range)
      .getCount();
  }
}
