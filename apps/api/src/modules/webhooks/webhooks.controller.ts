import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
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
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { NoStore } from '../../http/no-store.decorator';
import { ApiContract } from '../../http/openapi.decorators';

/** `webhooks:manage` includes `webhooks:read` (SCOPE_IMPLIES), so a key that manages webhooks can also read them. */
const READ_NOTE = 'Needs `webhooks:read` or `webhooks:manage`.';

const URL_RULES =
  'Live mode requires https:// and accepts only hosts resolving to global unicast addresses outside every special-purpose range (loopback, private, link-local, reserved, documentation, local-use NAT64, 6to4, Teredo… are refused), checked again at connect time. Test mode also accepts http://, and loopback and private networks only where the operator allows it (WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: on in development, off in production); refused, the URL gets the same `validation_error` as in live mode.';

@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly recovery: WebhookRecoveryService,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @NoStore()
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({ summary: 'Register a webhook endpoint', description: `Returns the signing secret (\`secret\`) once. ${URL_RULES}` })
  @ApiContract({ body: CreateWebhookRequest, response: WebhookResponse, status: 201, errors: ['validation_error'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateWebhookRequest): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.create(ctx, { url: body.url, events: body.events, webhookVersion: body.webhook_version }));
  }

  @Post('test')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({ summary: 'Send a signed test event (`webhook.test`)', description: "Answers the attempt's outcome: status code and latency, never the receiver's body." })
  @ApiContract({ body: TestWebhookRequest, response: WebhookAttemptResponse, errors: ['validation_error', 'webhook_not_found'] })
  async test(@Tenant() ctx: DeveloperContext, @Body() body: TestWebhookRequest): Promise<WebhookAttemptResponse> {
    return toWebhookAttemptResponse(await this.webhooks.sendTest(ctx, body.webhook_id));
  }

  @Post('logs/:log_id/retry')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Retry a delivery now',
    description: 'A new attempt with the same event id; the outcome is logged and returned (status and latency). `conflict` (409) while an attempt of the same delivery is in flight: retry a few seconds later.',
  })
  @ApiContract({ response: WebhookAttemptResponse, errors: ['webhook_log_not_found', 'conflict'] })
  async retry(@Tenant() ctx: DeveloperContext, @Param('log_id') logId: string): Promise<WebhookAttemptResponse> {
    return toWebhookAttemptResponse(await this.webhooks.retry(ctx, logId));
  }

  @Get()
  @Authenticated({ scope: 'webhooks:read' })
  @ApiOperation({ summary: 'List webhook endpoints', description: `Cursor-paginated, newest first. ${READ_NOTE}` })
  @ApiContract({ list: WebhookResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListQueryDto): Promise<ListResponse<WebhookResponse>> {
    const page = await this.webhooks.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toWebhookResponse);
  }

  @Get(':id/logs')
  @Authenticated({ scope: 'webhooks:read' })
  @ApiOperation({ summary: 'Delivery logs of an endpoint', description: `Every attempt: time, status code, latency, error as a short class (\`http_status\`, \`timeout\`, \`dns\`, \`refused\`, \`tls\`, \`invalid_response\`, \`connection\`, \`url_not_allowed\`, \`not_sent\`; never the socket's message), and the response body (first 1024 characters) only from addresses the live-mode URL rules accept. Cursor-paginated, newest first. ${READ_NOTE}` })
  @ApiContract({ list: WebhookLogResponse, errors: ['validation_error', 'webhook_not_found'] })
  async logs(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Query() query: ListQueryDto): Promise<ListResponse<WebhookLogResponse>> {
    const page = await this.webhooks.listLogs(ctx, id, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toWebhookLogResponse);
  }

  @Get(':id')
  @Authenticated({ scope: 'webhooks:read' })
  @ApiOperation({ summary: 'Get a webhook endpoint', description: `With its status and \`health\` (success rate over the last 7 UTC days, last success and failure, the current run of failed deliveries). ${READ_NOTE}` })
  @ApiContract({ response: WebhookResponse, errors: ['webhook_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.view(ctx, id));
  }

  @Post(':id/enable')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Enable a disabled webhook endpoint',
    description:
      'An endpoint the gateway disabled after its deliveries kept failing (`status: "disabled"`) receives new events again, and its run of failures starts afresh. Deliveries that failed meanwhile are not resent: replay them with `POST /webhooks/{id}/replay`. `invalid_state` (409) when the endpoint is not disabled.',
  })
  @ApiContract({ response: WebhookResponse, errors: ['webhook_not_found', 'invalid_state'] })
  async enable(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.recovery.enable(ctx, id));
  }

  @Post(':id/replay')
  @Idempotent()
  @HttpCode(202)
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({
    summary: 'Replay failed deliveries since a time',
    description:
      'Queues one new attempt of every delivery to the endpoint created at or after `since` that ended `failed` (same event id, signed afresh when sent, logged with `trigger: "replay"`), and answers how many were queued; the scheduler sends them within seconds. `since` must be in the past and within WEBHOOK_REPLAY_WINDOW_DAYS (30 by default). A delivery already queued by another replay is not queued twice. `invalid_state` (409) for a disabled endpoint: enable it first.',
  })
  @ApiContract({ body: ReplayWebhookRequest, response: ReplayWebhookResponse, status: 202, errors: ['validation_error', 'webhook_not_found', 'invalid_state'] })
  async replay(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Body() body: ReplayWebhookRequest): Promise<ReplayWebhookResponse> {
    const result = await this.recovery.replay(ctx, id, new Date(body.since));
    return { webhook_id: result.reference, since: result.since.toISOString(), queued: result.queued };
  }

  @Patch(':id')
  @Idempotent()
  @NoStore()
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({ summary: 'Update a webhook endpoint', description: `\`rotate_secret: true\` returns a new secret once; the previous one keeps signing (a second \`v1=\`) for WEBHOOK_SECRET_ROTATION_GRACE_HOURS. ${URL_RULES}` })
  @ApiContract({ body: UpdateWebhookRequest, response: WebhookResponse, errors: ['validation_error', 'webhook_not_found'] })
  async update(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Body() body: UpdateWebhookRequest): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.update(ctx, id, { url: body.url, events: body.events, webhookVersion: body.webhook_version, rotateSecret: body.rotate_secret }));
  }

  @Delete(':id')
  @Idempotent()
  @Authenticated({ scope: 'webhooks:manage' })
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Pending deliveries to it stop.' })
  @ApiContract({ response: WebhookDeletedResponse, errors: ['webhook_not_found'] })
  async delete(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<WebhookDeletedResponse> {
    await this.webhooks.delete(ctx, id);
    return { id, deleted: true };
  }
}
