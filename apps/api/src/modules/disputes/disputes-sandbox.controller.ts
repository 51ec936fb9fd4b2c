import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DisputeResponse, SandboxResolveDisputeRequest } from '@gateway/contracts';
import { DisputesService, toDisputeResponse } from '@gateway/domain/disputes';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';

/** The sandbox's dispute controls (test keys only); the rest of the sandbox is payments'. */
@ApiTags('Sandbox (test mode)')
@Controller('sandbox')
export class DisputesSandboxController {
  constructor(private readonly disputes: DisputesService) {}

  @Post('payments/:reference/dispute')
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Open a test dispute on a payment',
    description:
      "The simulator files a chargeback for the whole of a successful test payment, as a customer's bank would; the dispute is created `open` (with `dispute.created` and its hold on the wallet) and returned. Test keys only (403 `test_mode_required`).",
  })
  @ApiContract({ response: DisputeResponse, status: 201, errors: ['test_mode_required', 'payment_not_found', 'invalid_state', 'gateway_timeout', 'provider_error'] })
  async open(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<DisputeResponse> {
    return toDisputeResponse(await this.disputes.openSandbox(ctx, reference));
  }

  @Post('disputes/:reference/resolve')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: "Decide a test dispute as the customer's bank",
    description: '`outcome`: `won` (the hold is released, `dispute.won`) or `lost` (the hold is debited, `dispute.lost`), from `open` or `under_review`; a decided dispute is 409 `invalid_state`. Test keys only.',
  })
  @ApiContract({ body: SandboxResolveDisputeRequest, response: DisputeResponse, errors: ['validation_error', 'test_mode_required', 'dispute_not_found', 'invalid_state', 'gateway_timeout', 'provider_error'] })
  async resolve(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string, @Body() body: SandboxResolveDisputeRequest): Promise<DisputeResponse> {
    return toDisputeResponse(await this.disputes.resolveSandbox(ctx, reference, body.outcome));
  }
}
