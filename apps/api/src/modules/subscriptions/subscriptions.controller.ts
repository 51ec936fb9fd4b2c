import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateSubscriptionRequest, DEFAULT_PAGE_SIZE, ListSubscriptionsQuery, SubscriptionResponse } from '@gateway/contracts';
import { SubscriptionsService, toSubscriptionResponse } from '@gateway/domain/subscriptions';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Subscriptions')
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Subscribe a customer to a plan',
    description:
      'Charges the customer\'s saved card (`authorization_code`: a reusable card from one of THIS customer\'s payments; otherwise 400 `validation_error` naming it) every interval of the plan. ' +
      'A plan with a trial: `trialing`, first charge at `trial_end_at`. Without: the first period is charged at once — `active` when paid, `past_due` when declined (retried 1, 3 and 5 days later by default, then `cancelled`). ' +
      'If the provider does not answer in time, the subscription is still created with its first charge pending (`latest_charge.status`), completed by the billing scan without ever charging twice. ' +
      'Billing runs every 5 minutes; billing dates keep the anchor\'s day (31 January → 28/29 February → 31 March). An archived plan: 409 `plan_archived`. See docs/subscriptions.md.',
  })
  @ApiContract({
    body: CreateSubscriptionRequest,
    response: SubscriptionResponse,
    status: 201,
    errors: ['validation_error', 'customer_not_found', 'plan_not_found', 'plan_archived', 'capability_not_supported'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateSubscriptionRequest): Promise<SubscriptionResponse> {
    const subscription = await this.subscriptions.create(ctx, { customerReference: body.customer_reference, planId: body.plan_id, authorizationCode: body.authorization_code });
    return toSubscriptionResponse(subscription);
  }

  @Get()
  @Authenticated({ scope: 'subscriptions:read' })
  @ApiOperation({
    summary: 'List subscriptions',
    description: 'Cursor-paginated, newest first. Filters: `status` (`trialing`, `active`, `past_due`, `paused`, `cancelled`), `plan` (plan id), `customer` (reference).',
  })
  @ApiContract({ list: SubscriptionResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListSubscriptionsQuery): Promise<ListResponse<SubscriptionResponse>> {
    const page = await this.subscriptions.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      planId: query.plan,
      customerReference: query.customer,
    });
    return ListResponse.of(page, toSubscriptionResponse);
  }

  @Get(':id')
  @Authenticated({ scope: 'subscriptions:read' })
  @ApiOperation({ summary: 'Get a subscription', description: 'With its current period, `next_billing_at` and its latest charge (the payment\'s reference and outcome).' })
  @ApiContract({ response: SubscriptionResponse, errors: ['subscription_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.subscriptions.get(ctx, id));
  }

  @Post(':id/pause')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Pause a subscription',
    description:
      'Billing stops (no charge, no retry; `next_billing_at` null) until resumed: `subscription.paused`. From `trialing`, `active` or `past_due`; otherwise 409 `invalid_state` naming the status.',
  })
  @ApiContract({ response: SubscriptionResponse, errors: ['subscription_not_found', 'invalid_state'] })
  async pause(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.subscriptions.pause(ctx, id));
  }

  @Post(':id/resume')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Resume a paused subscription',
    description:
      'Billing restarts from the next billing date still ahead on the anchor\'s calendar (periods that began while paused are not charged; an unpaid past_due period is forgiven). ' +
      '`trialing` if the trial has not ended, else `active`. Only from `paused`; otherwise 409 `invalid_state` naming the status.',
  })
  @ApiContract({ response: SubscriptionResponse, errors: ['subscription_not_found', 'invalid_state'] })
  async resume(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.subscriptions.resume(ctx, id));
  }

  @Post(':id/cancel')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'subscriptions:write' })
  @ApiOperation({
    summary: 'Cancel a subscription',
    description: 'Ends it at once and for good (`cancellation_reason` `requested`): `subscription.cancelled`. A cancelled subscription: 409 `invalid_state`.',
  })
  @ApiContract({ response: SubscriptionResponse, errors: ['subscription_not_found', 'invalid_state'] })
  async cancel(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.subscriptions.cancel(ctx, id));
  }
}
