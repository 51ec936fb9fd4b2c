import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CustomerResponse, DEFAULT_PAGE_SIZE, ListCustomersQuery } from '@gateway/contracts';
import { CustomersService, toCustomerResponse } from '@gateway/domain/customers';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/** The account's customers in the session's mode (their payments: `GET /api/portal/payments?customer=`). */
@PortalController('customers')
export class PortalCustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List customers (this mode)', description: 'As `GET /api/v1/customers`: cursor-paginated, newest first. Filter: `email` (exact, case-insensitive).' })
  @ApiContract({ list: CustomerResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext, @Query() query: ListCustomersQuery): Promise<ListResponse<CustomerResponse>> {
    const page = await this.customers.list(accountContext(session), { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, email: query.email });
    return ListResponse.of(page, toCustomerResponse);
  }

  @Get(':reference')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Get a customer' })
  @ApiContract({ response: CustomerResponse, errors: ['customer_not_found', 'authentication_failed', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<CustomerResponse> {
    return toCustomerResponse(await this.customers.get(accountContext(session), reference));
  }
}
