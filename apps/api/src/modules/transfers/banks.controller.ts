import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BankResponse, ListBanksQuery } from '@gateway/contracts';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { TransferRecipientsService } from '@gateway/domain/transfers';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Transfers')
@Controller('banks')
export class BanksController {
  constructor(private readonly recipients: TransferRecipientsService) {}

  @Get()
  @Authenticated({ scope: 'transfers:read' })
  @ApiOperation({
    summary: 'List banks',
    description: 'The banks transfers can pay in `currency` (default NGN), as the provider lists them for the key\'s mode; `code` is what `bank_code` takes. Any key mode: the portal shows the list before live mode.',
  })
  @ApiContract({ response: [BankResponse], errors: ['invalid_currency', 'capability_not_supported', 'gateway_timeout', 'provider_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListBanksQuery): Promise<BankResponse[]> {
    const currency = parseRequestCurrency(query.currency);
    return (await this.recipients.banks(ctx, currency)).map((bank) => ({ name: bank.name, code: bank.code, currency: bank.currency, type: bank.type }));
  }
}
