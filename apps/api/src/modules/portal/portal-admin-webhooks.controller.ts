import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminFailingWebhookEndpointResponse, DEFAULT_PAGE_SIZE, ListQueryDto } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { type FailingEndpoint, WebhookHealthService } from '@gateway/domain/webhooks';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController } from './auth/portal-access';

/**
 * Webhook delivery health across every account, for platform staff (admins and financial
 * secretaries): which endpoints keep failing, so support can reach the account before its
 * deliveries run out of retries.
 */
@PortalController('admin/webhooks')
export class PortalAdminWebhooksController {
  constructor(
    private readonly health: WebhookHealthService,
    private readonly developers: DevelopersService,
  ) {}

  @Get('failing')
  @PortalAccess({ session: 'active', platform: 'platform:overview:read' })
  @ApiOperation({
    summary: 'Webhook endpoints with failed deliveries',
    description:
      'Endpoints of every account and mode with at least one failed attempt in the last 7 days, the most recently failing first (cursor-paginated): the account, the URL host only, the count, the last failure\'s class and the current failure streak (0 once the endpoint succeeded again).',
  })
  @ApiContract({ list: AdminFailingWebhookEndpointResponse, errors: ['validation_error', 'insufficient_role'] })
  async failing(@Query() query: ListQueryDto): Promise<ListResponse<AdminFailingWebhookEndpointResponse>> {
    const page = await this.health.failingEndpoints({ limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    const names = new Map(
      await Promise.all([...new Set(page.items.map((e) => e.developerId))].map(async (id): Promise<[string, string]> => [id, (await this.developers.get(id)).name])),
    );
    return ListResponse.of(page, (endpoint) => toFailingEndpoint(endpoint, names.get(endpoint.developerId) ?? ''));
  }
}

function toFailingEndpoint(endpoint: FailingEndpoint, developerName: string): AdminFailingWebhookEndpointResponse {
  return {
    id: endpoint.reference,
    developer_id: endpoint.developerId,
    developer_name: developerName,
    mode: endpoint.mode,
    url_host: urlHost(endpoint.url),
    failed_deliveries: endpoint.failedAttempts,
    last_failure_at: endpoint.lastFailureAt.toISOString(),
    last_error: endpoint.lastError,
    last_status_code: endpoint.lastStatusCode,
    consecutive_failures: endpoint.consecutiveFailures,
  };
}

/** The host (with a port) alone: an endpoint's path or query may hold the account's own secrets. */
function urlHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
