import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, fromStatesOf, statusLiterals, targetOf } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { INTENT_TRANSITIONS, type IntentTransition } from './payment-intent-status';

/** What a release needs: which hold, in which mode. */
export type IntentKey = Pick<PaymentIntentEntity, 'id' | 'reference' | 'mode' | 'currency'>;

/** An intent row still only claiming a hold the provider has not confirmed. */
const UNCONFIRMED = fromStatesOf(INTENT_TRANSITIONS, 'placeHold');
/** An intent whose authorize-only checkout awaits the customer. */
const AWAITING_ACTION = targetOf(INTENT_TRANSITIONS, 'openCheckout');
/** An intent whose capture was claimed and is being asked of the provider. */
const CAPTURING = targetOf(INTENT_TRANSITIONS, 'claimCapture');
/**
 * The statuses that lapse at expires_at, as literals: the predicate of the index
 * payment_intents_lapsing (migration IndexDueScans), which the expiry scan then reads by time.
 */
export const LAPSING = statusLiterals(fromStatesOf(INTENT_TRANSITIONS, 'expire'));
/** Intents whose hold must be released at the provider: canceled (by the merchant or the upkeep) or expired. */
const RELEASED_STATUSES = [...new Set([targetOf(INTENT_TRANSITIONS, 'cancel'), targetOf(INTENT_TRANSITIONS, 'abandonHold'), targetOf(INTENT_TRANSITIONS, 'expire')])];

/** Payment intent rows. Tenant reads take a DeveloperContext; the upkeep scans work across tenants (or one, in the sandbox). */
@Injectable()
export class PaymentIntentsRepository {
  constructor(@InjectRepository(PaymentIntentEntity) private readonly intents: Repository<PaymentIntentEntity>) {}

  get manager(): EntityManager {
    return this.intents.manager;
  }

  findById(id: string): Promise<PaymentIntentEntity> {
    return this.intents.findOneByOrFail({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity | null> {
    return this.intents.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** Across tenants and modes, for the customer's browser (references are unique and unguessable). */
  findForCheckout(reference: string): Promise<PaymentIntentEntity | null> {
    return this.intents.findOneBy({ reference });
  }

  /** Across tenants, for the provider's callback (references are unique): the intent of this mode, or null. */
  findByModeAndReference(mode: DeveloperContext['mode'], reference: string): Promise<PaymentIntentEntity | null> {
    return this.intents.findOneBy({ reference, mode });
  }

  /** Intents awaiting their customer not checked since `checkedBefore`, least recently checked first (the upkeep's verify). */
  findAwaitingAction(checkedBefore: Date, limit: number): Promise<PaymentIntentEntity[]> {
    return this.intents
      .createQueryBuilder('i')
      .where('i.status = :awaiting AND i.updated_at < :before', { awaiting: AWAITING_ACTION, before: checkedBefore })
      .orderBy('i.updated_at')
      .limit(limit)
      .getMany();
  }

  /** Records that the upkeep asked the provider about an intent still awaiting its customer (its status unchanged). */
  async markChecked(id: string, now: Date): Promise<void> {
    await this.intents.createQueryBuilder().update(PaymentIntentEntity).set({ updatedAt: now }).where('id = :id AND status = :awaiting', { id, awaiting: AWAITING_ACTION }).execute();
  }

  findByIdempotencyKey(ctx: DeveloperContext, idempotencyKey: string): Promise<PaymentIntentEntity | null> {
    return this.intents.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey });
  }

  /** Inserts the intent; null when a concurrent request with the same Idempotency-Key saved its intent first. */
  async insert(row: QueryDeepPartialEntity<PaymentIntentEntity>): Promise<PaymentIntentEntity | null> {
    const inserted = await this.intents.createQueryBuilder().insert().into(PaymentIntentEntity).values(row).orIgnore().returning('id').execute();
    const id = (inserted.raw as Array<{ id: string }>)[0]?.id;
    return id ? this.findById(id) : null;
  }

  /** The intent, its row locked until the transaction ends; null for a reference this tenant does not have. */
  lockByReference(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity | null> {
    return manager
      .getRepository(PaymentIntentEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.reference = :reference AND i.developer_id = :developerId AND i.mode = :mode', { reference, ...ctx })
      .getOne();
  }

  lockById(manager: EntityManager, id: string): Promise<PaymentIntentEntity> {
    return manager.getRepository(PaymentIntentEntity).createQueryBuilder('i').setLock('pessimistic_write').where('i.id = :id', { id }).getOneOrFail();
  }

  /** Moves the intent along a named transition; false when it was no longer in a status the transition starts from. */
  async move(manager: EntityManager, id: string, transition: IntentTransition, changes: Omit<QueryDeepPartialEntity<PaymentIntentEntity>, 'status'>): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(PaymentIntentEntity)
      .set({ ...changes, status: targetOf(INTENT_TRANSITIONS, transition) })
      .where('id = :id AND status IN (:...from)', { id, from: fromStatesOf(INTENT_TRANSITIONS, transition) })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /**
   * Gives a capture claim up (`refuseCapture`), unless the claim already has its payment: the
   * provider confirmed that capture once, so it is never given up. False when not given up.
   */
  async giveUpCapture(id: string, now: Date): Promise<boolean> {
    const result = await this.intents
      .createQueryBuilder()
      .update(PaymentIntentEntity)
      .set({ status: targetOf(INTENT_TRANSITIONS, 'refuseCapture'), captureAmount: null, captureStartedAt: null, updatedAt: now })
      .where('id = :id AND status IN (:...from) AND payment_id IS NULL', { id, from: fromStatesOf(INTENT_TRANSITIONS, 'refuseCapture') })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Deletes an intent whose hold the provider refused while it was still unconfirmed (the merchant never saw it). */
  async deleteUnconfirmed(id: string): Promise<void> {
    await this.intents.query(`DELETE FROM payment_intents WHERE id = $1 AND status = ANY ($2::text[])`, [id, UNCONFIRMED]);
  }

  /** Records the capture's payment on the intent (inside the transaction holding its lock). */
  async linkPayment(manager: EntityManager, id: string, paymentId: string, now: Date): Promise<void> {
    await manager.update(PaymentIntentEntity, { id }, { paymentId, updatedAt: now });
  }

  /**
   * Up to `limit` intents whose expiry has come become `expired`, the longest lapsed first; returns
   * how many. SKIP LOCKED: an intent a request is capturing or canceling is left to it (the next
   * run takes it if it is still due), and concurrent scans take disjoint rows.
   */
  async expire(now: Date, limit: number, ctx?: DeveloperContext): Promise<number> {
    const tenant = ctx ? 'AND developer_id = $4 AND mode = $5' : '';
    const [expired] = (await this.intents.query(
      `UPDATE payment_intents SET status = $1, updated_at = $2
        WHERE id IN (SELECT id FROM payment_intents WHERE status IN (${LAPSING}) AND expires_at <= $2 ${tenant}
                      ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [targetOf(INTENT_TRANSITIONS, 'expire'), now, limit, ...(ctx ? [ctx.developerId, ctx.mode] : [])],
    )) as [Array<{ id: string }>, number];
    return expired.length;
  }

  /** Up to `limit` unconfirmed creates older than `createdBefore` become `canceled` (SKIP LOCKED: concurrent scans take disjoint rows). */
  async abandonUnconfirmed(now: Date, createdBefore: Date, limit: number): Promise<IntentKey[]> {
    const [abandoned] = (await this.intents.query(
      `UPDATE payment_intents SET status = $1, updated_at = $2
        WHERE id IN (SELECT id FROM payment_intents WHERE status = ANY ($3::text[]) AND created_at < $4 ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED)
        RETURNING id, reference, mode, currency`,
      [targetOf(INTENT_TRANSITIONS, 'abandonHold'), now, fromStatesOf(INTENT_TRANSITIONS, 'abandonHold'), createdBefore, limit],
    )) as [IntentKey[], number];
    return abandoned;
  }

  /** Captures claimed before `startedBefore` whose outcome never came back, oldest first. */
  findStalledCaptures(startedBefore: Date, limit: number): Promise<PaymentIntentEntity[]> {
    return this.intents
      .createQueryBuilder('i')
      .where('i.status = :capturing AND i.capture_started_at < :before', { capturing: CAPTURING, before: startedBefore })
      .orderBy('i.capture_started_at')
      .limit(limit)
      .getMany();
  }

  /** Canceled or expired intents whose release the provider has not confirmed, least recently touched first. */
  findReleasesOwed(limit: number, ctx?: DeveloperContext): Promise<IntentKey[]> {
    const query = this.intents
      .createQueryBuilder('i')
      .select(['i.id', 'i.reference', 'i.mode', 'i.currency'])
      .where('i.status IN (:...released) AND i.released_at IS NULL', { released: RELEASED_STATUSES })
      .orderBy('i.updated_at')
      .limit(limit);
    if (ctx) query.andWhere('i.developer_id = :developerId AND i.mode = :mode', ctx);
    return query.getMany();
  }

  /** Records that the provider released the hold (once). */
  async markReleased(id: string, now: Date): Promise<void> {
    await this.intents.createQueryBuilder().update(PaymentIntentEntity).set({ releasedAt: now }).where('id = :id AND released_at IS NULL', { id }).execute();
  }
}
