import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { PlanInterval } from '@gateway/contracts';
import { type Currency, type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { PlanEntity } from './plan.entity';

export interface PlanListFilter {
  limit: number;
  cursor?: string;
  active?: boolean;
  interval?: PlanInterval;
  currency?: Currency;
}

/** Plan rows; every method is one tenant's (developer and mode). */
@Injectable()
export class PlansRepository {
  constructor(@InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>) {}

  async insert(plan: PlanEntity): Promise<PlanEntity> {
    await this.plans.insert(plan);
    return plan;
  }

  findByPublicId(ctx: DeveloperContext, publicId: string, manager: EntityManager = this.plans.manager): Promise<PlanEntity | null> {
    return manager.getRepository(PlanEntity).findOneBy({ publicId, developerId: ctx.developerId, mode: ctx.mode });
  }

  async list(ctx: DeveloperContext, filter: PlanListFilter): Promise<Page<PlanEntity>> {
    const page = newestFirst.page(filter);
    const query = this.plans.createQueryBuilder('p').where('p.developer_id = :developerId AND p.mode = :mode', ctx);
    if (filter.active !== undefined) query.andWhere('p.active = :active', { active: filter.active });
    if (filter.interval) query.andWhere('p.interval = :interval', { interval: filter.interval });
    if (filter.currency) query.andWhere('p.currency = :currency', { currency: filter.currency });
    return page.toPage(await page.applyTo(query, 'p').getMany(), (p) => p);
  }

  /**
   * Renames the plan and/or opens or archives it. `archived_at` is set when it is archived (kept
   * when it already was) and cleared when it is reopened.
   */
  async update(ctx: DeveloperContext, id: string, change: { name?: string; active?: boolean }, now: Date): Promise<PlanEntity> {
    await this.plans.query(
      `UPDATE subscription_plans
          SET name = COALESCE($4, name),
              active = COALESCE($5, active),
              archived_at = CASE WHEN $5::boolean IS NULL THEN archived_at WHEN $5 THEN NULL ELSE COALESCE(archived_at, $6) END,
              updated_at = $6
        WHERE id = $1 AND developer_id = $2 AND mode = $3`,
      [id, ctx.developerId, ctx.mode, change.name ?? null, change.active ?? null, now],
    );
    return this.plans.findOneByOrFail({ id, developerId: ctx.developerId, mode: ctx.mode });
  }
}
