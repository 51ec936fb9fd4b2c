import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  CreateWebhookRequest,
  DEFAULT_PAGE_SIZE,
  ListQueryDto,
  ReplayWebhookRequest,
  ReplayWebhookResponse,
  TestWebhookRequest,
  UpdateWebhookRequest,
  WebhookAttemptResponse,
  WebhookDeletedResponse,
  WebhookLogResponse,
  WebhookResponse,
} from '@gateway/contracts';
import { toWebhookAttemptResponse, toWebhookLogResponse, toWebhookResponse, WebhookRecoveryService, WebhooksService } from '@gateway/domain/webhooks';
import { ListResponse } from '../../http/list-response';
import { NoStore } from '../../http/no-store.decorator';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

const MANAGE_NOTE = 'Developers, admins and owners (`webhooks:manage`); viewers get 403 `insufficient_role`.';

/**
 * The account's webhook endpoints in the session's mode, with the merchant API's shapes, rules and
 * errors (`/api/v1/webhooks`, docs/webhooks.md): same service, same URL rules, another account's
 * endpoint or log is `webhook_not_found` / `webhook_log_not_found` as there.
 */
@PortalController('webhooks')
export class PortalWebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly recovery: WebhookRecoveryService,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List webhook endpoints (this mode)', description: 'As `GET /api/v1/webhooks`: cursor-paginated, newest first; never a secret.' })
  @ApiContract({ list: WebhookResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext, @Query() query: ListQueryDto): Promise<ListResponse<WebhookResponse>> {
    const page = await this.webhooks.list(accountContext(session), { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toWebhookResponse);
  }

  @Post()
  @HttpCode(201)
  @NoStore()
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description: `As \`POST /api/v1/webhooks\`: the signing secret (\`secret\`) is in this response only. Same URL rules (test mode: loopback and private targets only where the operator allows them). ${MANAGE_NOTE}`,
  })
  @ApiContract({ body: CreateWebhookRequest, response: WebhookResponse, status: 201, errors: ['validation_error', 'insufficient_role', 'csrf_token_invalid'] })
  async create(@PortalSession() session: PortalSessionContext, @Body() body: CreateWebhookRequest): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.create(accountContext(session), { url: body.url, events: body.events, webhookVersion: body.webhook_version }));
  }

  @Post('test')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({ summary: 'Send a signed test event (`webhook.test`)', description: `As \`POST /api/v1/webhooks/test\`: the attempt's outcome (status code, latency), never the receiver's body. ${MANAGE_NOTE}` })
  @ApiContract({ body: TestWebhookRequest, response: WebhookAttemptResponse, errors: ['validation_error', 'webhook_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async test(@PortalSession() session: PortalSessionContext, @Body() body: TestWebhookRequest): Promise<WebhookAttemptResponse> {
    return toWebhookAttemptResponse(await this.webhooks.sendTest(accountContext(session), body.webhook_id));
  }

  @Post('logs/:log_id/retry')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Retry a delivery now',
    description: `As \`POST /api/v1/webhooks/logs/{log_id}/retry\`: a new attempt with the same event id, logged and answered (status, latency); 409 \`conflict\` while an attempt of the same delivery is in flight. ${MANAGE_NOTE}`,
  })
  @ApiContract({ response: WebhookAttemptResponse, errors: ['webhook_log_not_found', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async retry(@PortalSession() session: PortalSessionContext, @Param('log_id') logId: string): Promise<WebhookAttemptResponse> {
    return toWebhookAttemptResponse(await this.webhooks.retry(accountContext(session), logId));
  }

  @Get('deliveries/failed')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Recent failed deliveries (this mode)',
    description:
      'Every failed attempt (automatic, manual or test) to any of the account’s endpoints that still exist, newest first, cursor-paginated, in the delivery-log shape; ' +
      '`webhook_id` names the endpoint whose log (`GET /api/portal/webhooks/{id}/logs`) has it and where `POST /api/portal/webhooks/logs/{log_id}/retry` retries it.',
  })
  @ApiContract({ list: WebhookLogResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  async failedDeliveries(@PortalSession() session: PortalSessionContext, @Query() query: ListQueryDto): Promise<ListResponse<WebhookLogResponse>> {
    const page = await this.webhooks.listFailedDeliveries(accountContext(session), { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toWebhookLogResponse);
  }

  @Get(':id/logs')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Delivery logs of an endpoint', description: 'As `GET /api/v1/webhooks/{id}/logs`: every attempt, newest first, cursor-paginated; the error as a short class.' })
  @ApiContract({ list: WebhookLogResponse, errors: ['validation_error', 'webhook_not_found', 'authentication_failed', 'insufficient_role'] })
  async logs(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Query() query: ListQueryDto): Promise<ListResponse<WebhookLogResponse>> {
    const page = await this.webhooks.listLogs(accountContext(session), id, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toWebhookLogResponse);
  }

  @Get(':id')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'With its status and health; never the secret.' })
  @ApiContract({ response: WebhookResponse, errors: ['webhook_not_found', 'authentication_failed', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext, @Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.view(accountContext(session), id));
  }

  @Post(':id/enable')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Enable a disabled webhook endpoint',
    description: `As \`POST /api/v1/webhooks/{id}/enable\`: new events reach it again and its run of failures starts afresh; 409 \`invalid_state\` when it is not disabled. ${MANAGE_NOTE}`,
  })
  @ApiContract({ response: WebhookResponse, errors: ['webhook_not_found', 'invalid_state', 'insufficient_role', 'csrf_token_invalid'] })
  async enable(@PortalSession() session: PortalSessionContext, @Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.recovery.enable(accountContext(session), id));
  }

  @Post(':id/replay')
  @HttpCode(202)
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Replay failed deliveries since a time',
    description: `As \`POST /api/v1/webhooks/{id}/replay\`: one new attempt of every delivery created at or after \`since\` that ended \`failed\`, queued; answers how many. 409 \`invalid_state\` for a disabled endpoint. ${MANAGE_NOTE}`,
  })
  @ApiContract({ body: ReplayWebhookRequest, response: ReplayWebhookResponse, status: 202, errors: ['validation_error', 'webhook_not_found', 'invalid_state', 'insufficient_role', 'csrf_token_invalid'] })
  async replay(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: ReplayWebhookRequest): Promise<ReplayWebhookResponse> {
    const result = await this.recovery.replay(accountContext(session), id, new Date(body.since));
    return { webhook_id: result.reference, since: result.since.toISOString(), queued: result.queued };
  }

  @Patch(':id')
  @NoStore()
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description: `As \`PATCH /api/v1/webhooks/{id}\`: any of \`url\`, \`events\`, \`webhook_version\`; \`rotate_secret: true\` returns a new secret once while the previous one keeps signing (a second \`v1=\`) for WEBHOOK_SECRET_ROTATION_GRACE_HOURS. ${MANAGE_NOTE}`,
  })
  @ApiContract({ body: UpdateWebhookRequest, response: WebhookResponse, errors: ['validation_error', 'webhook_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async update(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: UpdateWebhookRequest): Promise<WebhookResponse> {
    return toWebhookResponse(
      await this.webhooks.update(accountContext(session), id, {
        url: body.url,
        events: body.events,
        webhookVersion: body.webhook_version,
        rotateSecret: body.rotate_secret,
      }),
    );
  }

  @Delete(':id')
  @PortalAccess({ session: 'active', permission: 'webhooks:manage' })
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: `Pending deliveries to it stop; its logs stay. ${MANAGE_NOTE}` })
  @ApiContract({ response: WebhookDeletedResponse, errors: ['webhook_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async delete(@PortalSession() session: PortalSessionContext, @Param('id') id: string): Promise<WebhookDeletedResponse> {
    await this.webhooks.delete(accountContext(session), id);
    return { id, deleted: true };
  }
}
