import { Inject, Injectable } from '@nestjs/common';
import type { PlanInterval } from '@gateway/contracts';
import { amountLimits, parseRequestCurrency } from '@gateway/domain/payments';
import { PaymentProvider } from '@gateway/provider';
import { APP_CONFIG, type AppConfig, checkAmount, Clock, type DeveloperContext, DomainError, type Page, randomHex, timeOrderedUuid } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { PlanEntity } from './plan.entity';
import { type PlanListFilter, PlansRepository } from './plans.repository';

export interface NewPlan {
  name: string;
  amount: number;
  currency?: string;
  interval: PlanInterval;
  trialPeriodDays?: number;
}

export interface PlanListQuery extends Omit<PlanListFilter, 'currency'> {
  currency?: string;
}

/**
 * Subscription plans (table `subscription_plans`): what is charged, how often, after how long a
 * trial. Amount, currency, interval and trial never change once created (subscribers agreed to
 * them); the name can, and a plan can be archived (no new subscriptions, existing ones continue).
 */
@Injectable()
export class PlansService {
  constructor(
    private readonly repository: PlansRepository,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The amount is checked as a payment's would be (each period is one), so every charge the plan
   * makes is one the gateway accepts.
   * @throws invalid_currency, validation_error, capability_not_supported
   */
  async create(ctx: DeveloperContext, input: NewPlan): Promise<PlanEntity> {
    const currency = parseRequestCurrency(input.currency);
    const check = checkAmount(input.amount, currency, amountLimits(this.config));
    if (!check.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [check.message] });
    this.provider.capabilities(ctx.mode).require('payments', currency);
    const now = this.clock.now();
    return this.repository.insert({
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      publicId: `PLN_${randomHex(10)}`,
      name: input.name.trim(),
      amount: check.amount,
      currency,
      interval: input.interval,
      trialPeriodDays: input.trialPeriodDays ?? 0,
      active: true,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** @throws plan_not_found (also for another developer's or the other mode's plan) */
  async get(ctx: DeveloperContext, id: string, manager?: EntityManager): Promise<PlanEntity> {
    const plan = await this.repository.findByPublicId(ctx, id, manager);
    if (!plan) throw new DomainError('plan_not_found', 'No such plan.');
    return plan;
  }

  /** @throws validation_error (a cursor this list did not issue), invalid_currency */
  list(ctx: DeveloperContext, query: PlanListQuery): Promise<Page<PlanEntity>> {
    return this.repository.list(ctx, { ...query, currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency) });
  }

  /**
   * Renames the plan and/or archives (`active: false`) or reopens (`active: true`) it.
   * @throws plan_not_found, validation_error (nothing to change)
   */
  async update(ctx: DeveloperContext, id: string, change: { name?: string; active?: boolean }): Promise<PlanEntity> {
    if (change.name === undefined && change.active === undefined) {
      throw new DomainError('validation_error', 'Send name and/or active to change.', { name: ['name or active is required'], active: ['name or active is required'] });
    }
    const plan = await this.get(ctx, id);
    return this.repository.update(ctx, plan.id, { name: change.name?.trim(), active: change.active }, this.clock.now());
  }

  /** No new subscriptions; existing ones continue. Archiving an archived plan changes nothing. @throws plan_not_found */
  archive(ctx: DeveloperContext, id: string): Promise<PlanEntity> {
    return this.update(ctx, id, { active: false });
  }
}
