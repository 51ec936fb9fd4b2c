import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, ListCustomerPaymentsQuery, PaymentResponse } from '@gateway/contracts';
import { PaymentsService, toPaymentResponse } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, type DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Customers')
@Controller('customers')
export class CustomerPaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':ref/payments')
  @Authenticated({ scope: 'customers:read' })
  @ApiOperation({ summary: "A customer's payment history", description: 'Cursor-paginated, newest first. Filter: `status`.' })
  @ApiContract({ list: PaymentResponse, errors: ['validation_error', 'customer_not_found'] })
  async list(@Tenant() ctx: DeveloperContext, @Param('ref') ref: string, @Query() query: ListCustomerPaymentsQuery): Promise<ListResponse<PaymentResponse>> {
    const page = await this.payments.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, status: query.status, customerReference: ref });
    return ListResponse.of(page, (view) => toPaymentResponse(view, this.config.api.publicBaseUrl));
  }
}
