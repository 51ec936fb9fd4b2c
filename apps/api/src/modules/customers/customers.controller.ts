import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateCustomerRequest, CustomerResponse, DEFAULT_PAGE_SIZE, ListCustomersQuery } from '@gateway/contracts';
import { CustomersService, toCustomerResponse } from '@gateway/domain/customers';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Customers')
@Controller('customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'customers:write' })
  @ApiOperation({ summary: 'Create a customer', description: 'E-mail is unique per developer and mode (case-insensitive): a duplicate is 409 `customer_exists`.' })
  @ApiContract({ body: CreateCustomerRequest, response: CustomerResponse, status: 201, errors: ['validation_error', 'customer_exists'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateCustomerRequest): Promise<CustomerResponse> {
    return toCustomerResponse(await this.customers.create(ctx, body));
  }

  @Get()
  @Authenticated({ scope: 'customers:read' })
  @ApiOperation({ summary: 'List customers', description: 'Cursor-paginated, newest first. Filter: `email`.' })
  @ApiContract({ list: CustomerResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListCustomersQuery): Promise<ListResponse<CustomerResponse>> {
    const page = await this.customers.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, email: query.email });
    return ListResponse.of(page, toCustomerResponse);
  }

  @Get(':ref')
  @Authenticated({ scope: 'customers:read' })
  @ApiOperation({ summary: 'Get a customer' })
  @ApiContract({ response: CustomerResponse, errors: ['customer_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('ref') ref: string): Promise<CustomerResponse> {
    return toCustomerResponse(await this.customers.get(ctx, ref));
  }
}
