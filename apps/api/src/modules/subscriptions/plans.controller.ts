import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatePlanRequest, DEFAULT_PAGE_SIZE, ListPlansQuery, PlanResponse, UpdatePlanRequest } from '@gateway/contracts';
import { PlansService, toPlanResponse } from '@gateway/domain/subscriptions';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Subscriptions')
@Controller('subscriptions/plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Create a subscription plan',
    description:
      'What a subscriber is charged (`amount` in `currency`, checked like a payment: > 0, at most 2 decimals, the currency minimum and the maximum) every `interval` ' +
      '(`daily`, `weekly`, `monthly` — same day each month, clamped to shorter months — or `yearly`), after `trial_period_days` free days (0: charged when subscribing). ' +
      'Amount, currency, interval and trial never change afterwards (see docs/subscriptions.md). Unknown currency: 400 `invalid_currency`.',
  })
  @ApiContract({ body: CreatePlanRequest, response: PlanResponse, status: 201, errors: ['validation_error', 'invalid_currency', 'capability_not_supported'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreatePlanRequest): Promise<PlanResponse> {
    const plan = await this.plans.create(ctx, { name: body.name, amount: body.amount, currency: body.currency, interval: body.interval, trialPeriodDays: body.trial_period_days });
    return toPlanResponse(plan);
  }

  @Get()
  @Authenticated({ scope: 'subscriptions:read' })
  @ApiOperation({ summary: 'List subscription plans', description: 'Cursor-paginated, newest first. Filters: `active` (`true`, `false`), `interval`, `currency`.' })
  @ApiContract({ list: PlanResponse, errors: ['validation_error', 'invalid_currency'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListPlansQuery): Promise<ListResponse<PlanResponse>> {
    const page = await this.plans.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      active: query.active === undefined ? undefined : query.active === 'true',
      interval: query.interval,
      currency: query.currency,
    });
    return ListResponse.of(page, toPlanResponse);
  }

  @Get(':id')
  @Authenticated({ scope: 'subscriptions:read' })
  @ApiOperation({ summary: 'Get a subscription plan' })
  @ApiContract({ response: PlanResponse, errors: ['plan_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.get(ctx, id));
  }

  @Patch(':id')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Rename, archive or reopen a plan',
    description:
      '`name` renames it; `active: false` archives it (new subscriptions: 409 `plan_archived`; existing ones continue, billed as before), `active: true` reopens it. ' +
      'Amount, currency, interval and trial cannot change (unknown fields: 400 `validation_error`); an empty body is 400 too.',
  })
  @ApiContract({ body: UpdatePlanRequest, response: PlanResponse, errors: ['validation_error', 'plan_not_found'] })
  async update(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Body() body: UpdatePlanRequest): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.update(ctx, id, { name: body.name, active: body.active }));
  }

  @Post(':id/archive')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Archive a plan',
    description: 'The same as `PATCH` with `active: false`: no new subscriptions (409 `plan_archived`); existing ones continue. Archiving an archived plan changes nothing.',
  })
  @ApiContract({ response: PlanResponse, errors: ['plan_not_found'] })
  async archive(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.archive(ctx, id));
  }
}
