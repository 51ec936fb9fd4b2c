import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminUnmatchedDepositResponse, DEFAULT_PAGE_SIZE, ListQueryDto } from '@gateway/contracts';
import { toAdminUnmatchedDepositResponse, VirtualAccountDepositsService } from '@gateway/domain/virtual-accounts';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController } from './auth/portal-access';

/**
 * Bank transfers into dedicated accounts the gateway could not match to a virtual account: the
 * money reached the platform's provider account but no wallet, so platform staff (admins and
 * financial secretaries) trace them and settle them by hand.
 */
@PortalController('admin/unmatched-deposits')
export class PortalAdminDepositsController {
  constructor(private readonly deposits: VirtualAccountDepositsService) {}

  @Get()
  @PortalAccess({ session: 'active', platform: 'platform:deposits:read' })
  @ApiOperation({ summary: 'Deposits that matched no virtual account', description: 'Every mode and account, newest first, with the receiving account number and the sender as the provider reported them.' })
  @ApiContract({ list: AdminUnmatchedDepositResponse, errors: ['validation_error', 'insufficient_role'] })
  async list(@Query() query: ListQueryDto): Promise<ListResponse<AdminUnmatchedDepositResponse>> {
    const page = await this.deposits.listUnmatched({ limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toAdminUnmatchedDepositResponse);
  }
}
