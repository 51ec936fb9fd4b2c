import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SandboxVirtualAccountDepositRequest, VirtualAccountDepositResponse } from '@gateway/contracts';
import { toVirtualAccountDepositResponse, VirtualAccountsService } from '@gateway/domain/virtual-accounts';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Sandbox (test mode)')
@Controller('sandbox/virtual-accounts')
export class SandboxVirtualAccountsController {
  constructor(private readonly accounts: VirtualAccountsService) {}

  @Post(':id/deposits')
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Simulate a bank transfer into a virtual account',
    description:
      'The provider sandbox receives `amount` (NGN) into the account and sends its callback, as a real transfer would; the answer is the deposit as credited (the callback then changes nothing). Test keys only (403 `test_mode_required`). Send an `Idempotency-Key` to make a retry safe: each call without one is a new transfer.',
  })
  @ApiContract({
    body: SandboxVirtualAccountDepositRequest,
    response: VirtualAccountDepositResponse,
    status: 201,
    errors: ['validation_error', 'test_mode_required', 'virtual_account_not_found', 'gateway_timeout', 'provider_error'],
  })
  async deposit(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Body() body: SandboxVirtualAccountDepositRequest): Promise<VirtualAccountDepositResponse> {
    const { account, deposit } = await this.accounts.sandboxDeposit(ctx, id, { amount: body.amount, senderName: body.sender_name });
    return toVirtualAccountDepositResponse(deposit, account);
  }
}
