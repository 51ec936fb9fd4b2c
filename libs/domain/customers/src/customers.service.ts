import { Injectable } from '@nestjs/common';
import { eventWithFanOutCtes, EventsService } from '@gateway/domain/webhooks';
import type { CustomerResponse } from '@gateway/contracts';
import { allPages, Clock, type DeveloperContext, DomainError, inTransaction, type Page, randomHex, READ_THROUGH_PAGE_SIZE, shiftParameters } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { CustomerEntity } from './customer.entity';
import { toCustomerResponse } from './customer.mapper';
import { type CustomerListFilter, CustomersRepository, findOrInsertParameters, FIND_OR_INSERT_CTES, FIND_OR_INSERT_PARAMETERS, type NewCustomerRow } from './customers.repository';

export type { CustomerListFilter } from './customers.repository';

/**
 * A payment's customer by e-mail as CTEs of the caller's one statement: `customer` (id, reference),
 * inserted when new, with its `customer.created` event and the event's webhook fan-out
 * (eventWithFanOutCtes: the caller's query must read `event_fan_out`); parameters from
 * CustomersService.findOrCreateByEmailInStatement. Empty `customer`: a concurrent transaction
 * inserted it after the statement's snapshot, and the caller runs the statement again.
 */
export const customerByEmailCtes = `${FIND_OR_INSERT_CTES}, ${shiftParameters(eventWithFanOutCtes('inserted_customer'), FIND_OR_INSERT_PARAMETERS)}`;

export interface NewCustomer {
  email: string;
  name?: string;
  phone?: string;
  metadata?: Record<string, unknown>;
}

/** Customers of a developer, per mode. E-mail is unique per developer and mode (case-insensitive). */
@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly events: EventsService,
  ) {}

  /** @throws customer_exists */
  async create(ctx: DeveloperContext, input: NewCustomer): Promise<CustomerEntity> {
    // The customer and its customer.created event commit together.
    const created = await inTransaction(this.dataSource, async (m) => {
      const customer = await this.customers.insertIfAbsent(m, ctx, this.newRow(input));
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
    if (!manager) return inTransaction(this.dataSource, (m) => this.findOrCreateByEmail(ctx, email, m));
    const found = await this.customers.findOrInsertByEmail(manager, ctx, this.newRow({ email }));
    if (found?.created) await this.events.emit(manager, ctx, 'customer.created', { ...toCustomerResponse(found.customer) });
    return found ?? { customer: await this.customers.findByEmailOrFail(manager, ctx, email.trim()), created: false };
  }

  /**
   * findOrCreateByEmail inside a caller's one statement (customerByEmailCtes, a payment's
   * initialize): the statement's customer parameters. Its `customer.created` event is written
   * with the customer, only when the statement inserts it.
   */
  findOrCreateByEmailInStatement(ctx: DeveloperContext, email: string): unknown[] {
    const row = this.newRow({ email });
    const event = this.events.emitInStatement(ctx, 'customer.created', { ...toCustomerResponse(row) });
    return [...findOrInsertParameters(ctx, row), ...event];
  }

  /** The statement holding findOrCreateByEmailInStatement's parameters has returned: its `fan_out` (the event's deliveries made). */
  afterStatement(fanOut: number | string | null): void {
    this.events.afterStatement(fanOut);
  }

  /** @throws customer_not_found (also for another developer's or the other mode's customer) */
  async get(ctx: DeveloperContext, reference: string): Promise<CustomerEntity> {
    const customer = await this.customers.findByReference(ctx, reference);
    if (!customer) throw new DomainError('customer_not_found', 'No such customer.');
    return customer;
  }

  /** By internal id, for capabilities that stored it. @throws customer_not_found */
  async getById(ctx: DeveloperContext, id: string, manager?: EntityManager): Promise<CustomerEntity> {
    const customer = await this.customers.findById(ctx, id, manager);
    if (!customer) throw new DomainError('customer_not_found', 'No such customer.');
    return customer;
  }

  /** Newest first, keyset-paginated. @throws validation_error for a cursor this API did not issue */
  list(ctx: DeveloperContext, filter: CustomerListFilter): Promise<Page<CustomerEntity>> {
    return this.customers.list(ctx, filter);
  }

  /** Exports (docs/exports.md): the customers created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date }): AsyncGenerator<CustomerResponse> {
    return allPages((cursor) => this.customers.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), toCustomerResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date }): Promise<number> {
    return this.customers.countCreated(ctx, range);
  }

  /** A new customer's row: a fresh public reference, the e-mail trimmed. */
  private newRow(input: NewCustomer): NewCustomerRow {
    return {
      reference: `CUS_${randomHex(8)}`,
      email: input.email.trim(),
      name: input.name ?? null,
      phone: input.phone ?? null,
      metadata: input.metadata ?? {},
      createdAt: this.clock.now(),
    };
  }
}
