import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { InvoiceStatus } from '@gateway/contracts';
import { type Amount, type DeveloperContext, fromStatesOf, newestFirst, type NewestFirstPage, type Page, statusLiterals, targetOf } from '@gateway/platform';
import { type EntityManager, In, type Repository, type SelectQueryBuilder } from 'typeorm';
import { InvoiceEntity, InvoicePaymentEntity } from './invoice.entity';
import { INVOICE_TRANSITIONS, type InvoiceTransition } from './invoice-status';

export interface InvoiceListFilter {
  limit: number;
  cursor?: string;
  status?: InvoiceStatus;
  customerReference?: string;
  dueFrom?: string;
  dueTo?: string;
  /** Exports: created in [from, to). */
  from?: Date;
  to?: Date;
}

/** The draft fields an update may replace. */
export type InvoiceDraftChanges = Partial<Pick<InvoiceEntity, 'customerId' | 'customerReference' | 'currency' | 'dueDate' | 'lineItems' | 'totalAmount'>>;

/** The overdue move's statuses as SQL literals, so the planner can use the partial index `invoices_overdue_scan`. */
const OVERDUE_FROM = statusLiterals(fromStatesOf(INVOICE_TRANSITIONS, 'markOverdue'));
const OVERDUE = targetOf(INVOICE_TRANSITIONS, 'markOverdue');
/** Later than any invoice: the nearer an invoice's created_at to it, the newer the invoice. */
const LATEST_POSSIBLE = `'9999-12-31T00:00:00Z'::timestamptz`;
/** The lists' order (created_at DESC, id DESC) in JavaScript: uuids compare as PostgreSQL compares them, byte by byte. */
const newestFirstOrder = (a: InvoiceEntity, b: InvoiceEntity) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Invoice and invoice-payment rows. Tenant reads and writes take a DeveloperContext and filter by
 * developer AND mode; the public payment page knows a link token only, and the payment hook a
 * payment id only (each then acts for the row's own tenant).
 */
@Injectable()
export class InvoicesRepository {
  constructor(
    @InjectRepository(InvoiceEntity) private readonly invoices: Repository<InvoiceEntity>,
    @InjectRepository(InvoicePaymentEntity) private readonly payments: Repository<InvoicePaymentEntity>,
  ) {}

  findByReference(ctx: DeveloperContext, reference: string, manager: EntityManager = this.invoices.manager): Promise<InvoiceEntity | null> {
    return manager.getRepository(InvoiceEntity).findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  findByLinkToken(token: string): Promise<InvoiceEntity | null> {
    return this.invoices.findOneBy({ linkToken: token });
  }

  async list(ctx: DeveloperContext, filter: InvoiceListFilter): Promise<Page<InvoiceEntity>> {
    const page = newestFirst.page(filter);
    const query = this.invoices.createQueryBuilder('i').where('i.developer_id = :developerId AND i.mode = :mode', ctx);
    if (filter.status) query.andWhere('i.status = :status', { status: filter.status });
    if (filter.customerReference) query.andWhere('i.customer_reference = :customerReference', { customerReference: filter.customerReference });
    if (filter.dueFrom) query.andWhere('i.due_date >= :dueFrom', { dueFrom: filter.dueFrom });
    if (filter.dueTo) query.andWhere('i.due_date <= :dueTo', { dueTo: filter.dueTo });
    if (filter.from) query.andWhere('i.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('i.created_at < :to', { to: filter.to });
    page.applyTo(query, 'i');
    if (filter.dueFrom || filter.dueTo) return page.toPage(await this.dueInRange(query, page), (i) => i);
    return page.toPage(await query.getMany(), (i) => i);
  }

  /**
   * A page of a due-date range. Its invoices are anywhere in the newest-first order, so they are
   * read through invoices_due_by_time (GiST), which skips what is outside the range (and the
   * status, when one is asked) and returns the rest nearest the newest first: the page's invoices, but with those made at the same
   * instant in no set order. So when the page ends on an instant, every invoice of that instant in
   * the range is read too (one probe of the listing index), and the page is put in the list's
   * order. The cursor's time, as a bound the index takes, spares the scan the pages already read.
   */
  private async dueInRange(query: SelectQueryBuilder<InvoiceEntity>, page: NewestFirstPage): Promise<InvoiceEntity[]> {
    if (page.after) query.andWhere('i.created_at <= :pageStart', { pageStart: page.after.createdAt });
    const nearest = await query.clone().orderBy(`i.created_at <-> ${LATEST_POSSIBLE}`).getMany();
    if (nearest.length <= page.limit) return nearest.sort(newestFirstOrder);
    const pageEnd = nearest[nearest.length - 1].createdAt;
    const atPageEnd = await query.clone().andWhere('i.created_at = :pageEnd', { pageEnd }).getMany();
    const newer = nearest.filter((invoice) => invoice.createdAt > pageEnd);
    return [...newer, ...atPageEnd].sort(newestFirstOrder).slice(0, page.limit + 1);
  }

  /** How many invoices the list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date; status?: InvoiceStatus }): Promise<number> {
    const query = this.invoices.createQueryBuilder('i').where('i.developer_id = :developerId AND i.mode = :mode', ctx);
    query.andWhere('i.created_at >= :from AND i.created_at < :to', range);
    if (range.status) query.andWhere('i.status = :status', { status: range.status });
    return query.getCount();
  }

  async insert(invoice: InvoiceEntity): Promise<InvoiceEntity> {
    await this.invoices.insert(invoice);
    return invoice;
  }

  /** Replaces a draft's fields; null when it is no longer a draft (a concurrent send, cancel or delete won). */
  async updateDraft(ctx: DeveloperContext, id: string, changes: InvoiceDraftChanges, now: Date): Promise<InvoiceEntity | null> {
    const result = await this.invoices
      .createQueryBuilder()
      .update(InvoiceEntity)
      .set({ ...changes, updatedAt: now })
      .where('id = :id AND developer_id = :developerId AND mode = :mode AND status = :draft', { id, ...ctx, draft: 'draft' })
      .execute();
    return (result.affected ?? 0) > 0 ? this.invoices.findOneByOrFail({ id }) : null;
  }

  /** Deletes a draft; false when it is no longer one. */
  async deleteDraft(ctx: DeveloperContext, id: string): Promise<boolean> {
    const result = await this.invoices.delete({ id, developerId: ctx.developerId, mode: ctx.mode, status: 'draft' });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Moves the invoice along `transition` if its status allows it (one conditional UPDATE: of two
   * racing moves exactly one wins), stamping the move's time column and, for `send`, the link
   * token; null when it did not move.
   */
  async move(
    manager: EntityManager,
    ctx: DeveloperContext,
    id: string,
    transition: Exclude<InvoiceTransition, 'pay' | 'payPartially' | 'markOverdue'>,
    now: Date,
    linkToken?: string,
  ): Promise<InvoiceEntity | null> {
    const stamp = transition === 'send' ? 'sent_at' : 'cancelled_at';
    const [rows] = (await manager.query(
      `UPDATE invoices SET status = $4, ${stamp} = $5, updated_at = $5, link_token = COALESCE($6, link_token)
        WHERE id = $1 AND developer_id = $2 AND mode = $3 AND status = ANY ($7::text[]) RETURNING id`,
      [id, ctx.developerId, ctx.mode, targetOf(INVOICE_TRANSITIONS, transition), now, linkToken ?? null, fromStatesOf(INVOICE_TRANSITIONS, transition)],
    )) as [unknown[], number];
    return rows.length > 0 ? manager.getRepository(InvoiceEntity).findOneByOrFail({ id }) : null;
  }

  /** The invoice row, locked until the transaction ends (payments on one invoice apply one at a time). */
  lockById(manager: EntityManager, ctx: DeveloperContext, id: string): Promise<InvoiceEntity | null> {
    return manager
      .getRepository(InvoiceEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :id AND i.developer_id = :developerId AND i.mode = :mode', { id, ...ctx })
      .getOne();
  }

  /** Records a payment on a locked invoice: amount_paid, and the status and paid_at the caller decided. */
  async recordPaid(manager: EntityManager, ctx: DeveloperContext, id: string, amountPaid: Amount, status: InvoiceStatus, paidAt: Date | null, now: Date): Promise<InvoiceEntity> {
    const tenant = { id, developerId: ctx.developerId, mode: ctx.mode };
    await manager.getRepository(InvoiceEntity).update(tenant, { amountPaid, status, paidAt, updatedAt: now });
    return manager.getRepository(InvoiceEntity).findOneByOrFail(tenant);
  }

  /**
   * `sent` / `partially_paid` invoices due before `today` (YYYY-MM-DD) become `overdue`: ONE
   * conditional UPDATE … RETURNING over rows locked with SKIP LOCKED, so several schedulers (and
   * the test-clock orchestrator) can run it at once and each invoice moves once. `ctx` limits it
   * to one tenant.
   */
  async markOverdue(manager: EntityManager, today: string, now: Date, limit: number, ctx?: DeveloperContext): Promise<InvoiceEntity[]> {
    const tenant = ctx ? 'AND developer_id = $4 AND mode = $5' : '';
    const [rows] = (await manager.query(
      `UPDATE invoices SET status = '${OVERDUE}', overdue_at = $2, updated_at = $2
        WHERE id IN (SELECT id FROM invoices WHERE status IN (${OVERDUE_FROM}) AND due_date < $1::date ${tenant}
                      ORDER BY due_date, id LIMIT $3 FOR UPDATE SKIP LOCKED)
          AND status IN (${OVERDUE_FROM})
        RETURNING id`,
      [today, now, Math.max(0, Math.floor(limit)), ...(ctx ? [ctx.developerId, ctx.mode] : [])],
    )) as [Array<{ id: string }>, number];
    if (rows.length === 0) return [];
    return manager.getRepository(InvoiceEntity).findBy({ id: In(rows.map((r) => r.id)) });
  }

  async insertPayment(payment: InvoicePaymentEntity): Promise<void> {
    await this.payments.insert(payment);
  }

  /** Writes which payment a checkout row started (once). */
  async linkPayment(ctx: DeveloperContext, id: string, paymentId: string, paymentReference: string): Promise<void> {
    await this.payments.update({ id, developerId: ctx.developerId, mode: ctx.mode }, { paymentId, paymentReference });
  }

  /** A checkout row, locked (its id is its payment's idempotency key, so it is found before the link is written). */
  lockCheckout(manager: EntityManager, ctx: DeveloperContext, id: string): Promise<InvoicePaymentEntity | null> {
    return manager.getRepository(InvoicePaymentEntity).findOne({ where: { id, developerId: ctx.developerId, mode: ctx.mode }, lock: { mode: 'pessimistic_write' } });
  }

  async markPaymentSucceeded(manager: EntityManager, ctx: DeveloperContext, id: string, payment: { id: string; reference: string; amount: Amount }, now: Date): Promise<void> {
    await manager
      .getRepository(InvoicePaymentEntity)
      .update({ id, developerId: ctx.developerId, mode: ctx.mode }, { amount: payment.amount, paymentId: payment.id, paymentReference: payment.reference, succeededAt: now });
  }
}
