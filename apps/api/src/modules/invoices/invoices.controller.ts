import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateInvoiceRequest, DEFAULT_PAGE_SIZE, InvoiceDeletedResponse, InvoiceResponse, ListInvoicesQuery, UpdateInvoiceRequest } from '@gateway/contracts';
import { type Invoice, InvoicesService, toInvoiceResponse } from '@gateway/domain/invoices';
import { APP_CONFIG, type AppConfig, type DeveloperContext, DomainError } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

const TOTALS_RULE =
  '`total_amount` is exact: each line\'s amount is `quantity × unit_price` computed exactly and rounded half-up to the cent (2.5 × 33.33 = 83.325 → 83.33), and the total is the sum of the line amounts ' +
  '(3 × 33.33 + 1 × 0.01 = 100.00). Line items: 1 to 100; `description` 1–200 characters; `quantity` > 0, at most 4 decimal places, at most 1,000,000; `unit_price` > 0 with at most 2 decimals; ' +
  'a line that rounds to 0.00 is refused; the total must be between the currency\'s minimum payment (NGN 100, KES 10, USD 1, GBP 1 by default) and the maximum amount. ' +
  '`due_date` is a real calendar date (YYYY-MM-DD), not before the tenant\'s today (UTC; test mode follows the developer\'s test clock).';

@ApiTags('Invoices')
@Controller('invoices')
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'invoices:write' })
  @ApiOperation({ summary: 'Create an invoice (draft)', description: `A \`draft\` for one of your customers; send it with PATCH \`action: "send"\`. ${TOTALS_RULE}` })
  @ApiContract({
    body: CreateInvoiceRequest,
    response: InvoiceResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'customer_not_found'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateInvoiceRequest): Promise<InvoiceResponse> {
    const invoice = await this.invoices.create(ctx, { customerReference: body.customer_reference, dueDate: body.due_date, currency: body.currency, lineItems: body.line_items });
    return this.toResponse(invoice);
  }

  @Get()
  @Authenticated({ scope: 'invoices:read' })
  @ApiOperation({
    summary: 'List invoices',
    description: 'Cursor-paginated, newest first. Filters: `status`, `customer` (reference), `due_from` / `due_to` (YYYY-MM-DD, inclusive).',
  })
  @ApiContract({ list: InvoiceResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListInvoicesQuery): Promise<ListResponse<InvoiceResponse>> {
    const page = await this.invoices.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      customerReference: query.customer,
      dueFrom: query.due_from,
      dueTo: query.due_to,
    });
    return ListResponse.of(page, (invoice) => this.toResponse(invoice));
  }

  @Get(':reference')
  @Authenticated({ scope: 'invoices:read' })
  @ApiOperation({ summary: 'Get an invoice' })
  @ApiContract({ response: InvoiceResponse, errors: ['invoice_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<InvoiceResponse> {
    return this.toResponse(await this.invoices.get(ctx, reference));
  }

  @Patch(':reference')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'invoices:write' })
  @ApiOperation({
    summary: 'Update, send or cancel an invoice',
    description:
      'Either `action` alone, or draft fields to replace. `action: "send"`: draft → `sent`, with `payment_link`, a public page where the customer pays all or part of `amount_due` ' +
      '(each part at least the currency minimum and leaving nothing or at least the minimum due; never more than is due). Its `due_date` must not be before the tenant\'s today. ' +
      '`action: "cancel"`: draft, sent or overdue → `cancelled` (the link then answers 404). Fields (`customer_reference`, `due_date`, `currency`, `line_items` — all items at once) ' +
      `change a draft only. Any move the status forbids (sending a sent, paid or cancelled invoice; cancelling a partially paid, paid or cancelled one; editing a sent one) is 409 \`invalid_state\` naming the status. ${TOTALS_RULE}`,
  })
  @ApiContract({
    body: UpdateInvoiceRequest,
    response: InvoiceResponse,
    errors: ['validation_error', 'invoice_not_found', 'invalid_state', 'invalid_currency', 'capability_not_supported', 'customer_not_found'],
  })
  async update(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string, @Body() body: UpdateInvoiceRequest): Promise<InvoiceResponse> {
    const { action, ...fields } = body;
    const changed = Object.keys(fields).filter((key) => fields[key as keyof typeof fields] !== undefined);
    if (action && changed.length > 0) {
      throw new DomainError('validation_error', 'The request is invalid.', { action: [`action must be sent alone; change ${changed.join(', ')} in a request of its own`] });
    }
    if (action === 'send') return this.toResponse(await this.invoices.send(ctx, reference));
    if (action === 'cancel') return this.toResponse(await this.invoices.cancel(ctx, reference));
    if (changed.length === 0) throw new DomainError('validation_error', 'The request is invalid.', { body: ['send an action or at least one field to change'] });
    const invoice = await this.invoices.update(ctx, reference, {
      customerReference: body.customer_reference,
      dueDate: body.due_date,
      currency: body.currency,
      lineItems: body.line_items,
    });
    return this.toResponse(invoice);
  }

  @Delete(':reference')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'invoices:write' })
  @ApiOperation({ summary: 'Delete a draft invoice', description: 'Only a `draft` is deleted; any other status is 409 `invalid_state` naming it (cancel a sent invoice instead).' })
  @ApiContract({ response: InvoiceDeletedResponse, errors: ['invoice_not_found', 'invalid_state'] })
  async delete(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<InvoiceDeletedResponse> {
    await this.invoices.delete(ctx, reference);
    return { reference, deleted: true };
  }

  private toResponse(invoice: Invoice): InvoiceResponse {
    return toInvoiceResponse(invoice, this.config.api.publicBaseUrl);
  }
}
