import { Body, Controller, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, DisputeResponse, ListDisputesQuery, SubmitDisputeEvidenceRequest } from '@gateway/contracts';
import { DisputesService, toDisputeResponse } from '@gateway/domain/disputes';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Disputes')
@Controller('disputes')
export class DisputesController {
  constructor(private readonly disputes: DisputesService) {}

  @Get()
  @Authenticated({ scope: 'disputes:read' })
  @ApiOperation({ summary: 'List disputes', description: 'Cursor-paginated, newest first. Filter: `status` (`open`, `under_review`, `won`, `lost`).' })
  @ApiContract({ list: DisputeResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListDisputesQuery): Promise<ListResponse<DisputeResponse>> {
    const page = await this.disputes.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, status: query.status });
    return ListResponse.of(page, toDisputeResponse);
  }

  @Get(':reference')
  @Authenticated({ scope: 'disputes:read' })
  @ApiOperation({ summary: 'Get a dispute' })
  @ApiContract({ response: DisputeResponse, errors: ['dispute_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<DisputeResponse> {
    return toDisputeResponse(await this.disputes.get(ctx, reference));
  }

  @Patch(':reference')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'disputes:write' })
  @ApiOperation({
    summary: 'Submit evidence for a dispute',
    description:
      'Contests the chargeback at the provider with the evidence (docs/disputes.md lists the fields) and moves the dispute to `under_review`; the bank then decides (`dispute.won` / `dispute.lost`). ' +
      'Only while the dispute is `open` and before `evidence_due_at`: otherwise 409 `invalid_state` naming its status (an open dispute past its deadline is `lost`).',
  })
  @ApiContract({ body: SubmitDisputeEvidenceRequest, response: DisputeResponse, errors: ['validation_error', 'dispute_not_found', 'invalid_state', 'gateway_timeout', 'provider_error'] })
  async submitEvidence(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string, @Body() body: SubmitDisputeEvidenceRequest): Promise<DisputeResponse> {
    const dispute = await this.disputes.submitEvidence(ctx, reference, {
      customerEmail: body.customer_email,
      customerName: body.customer_name,
      customerPhone: body.customer_phone,
      serviceDetails: body.service_details,
      serviceDate: body.service_date ?? null,
      deliveryDate: body.delivery_date ?? null,
      deliveryAddress: body.delivery_address ?? null,
      explanation: body.explanation ?? null,
      fileUrls: body.file_urls ?? [],
    });
    return toDisputeResponse(dispute);
  }
}
