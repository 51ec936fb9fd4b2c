import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BulkTransfersRequest, CreateTransferRequest, type FieldErrors, TRANSFER_BULK_MAX_ITEMS, TransferBatchResponse } from '@gateway/contracts';
import { type NewTransfer, TransferBatchesService, toTransferBatchResponse } from '@gateway/domain/transfers';
import { type DeveloperContext, DomainError } from '@gateway/platform';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';
import { flattenValidationErrors } from '../../http/validation.pipe';
import { toNewTransfer, transferFormErrors } from './transfer-form';

@ApiTags('Transfers')
@Controller('transfers/bulk')
export class TransferBatchesController {
  constructor(private readonly batches: TransferBatchesService) {}

  // Its own path segment (`bulk/…`), so `GET /transfers/{reference}` never sees these requests.
  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'transfers:write', liveOnly: true })
  @ApiOperation({
    summary: 'Send transfers in bulk',
    description:
      `Live mode only. \`items\`: 1 to ${TRANSFER_BULK_MAX_ITEMS.toLocaleString('en')}, each a body of \`POST /transfers/\` (bank form or wallet form), all paid in the batch's \`currency\` (NGN by default; an item may repeat it, not name another). ` +
      'More items are refused (400 `validation_error` on `items`) before any item is read. Every item is then checked as a single transfer would be, without resolving each account at its bank: one bad item refuses the batch with 400 `validation_error`, errors keyed `items.<index>.<field>`, and nothing is created. ' +
      "Then the sum of the amounts is checked against `available_balance` (422 `insufficient_wallet_balance`, nothing created). Nothing is reserved yet: the batch (201, status `processing`) is processed in the background, and each item's transfer reserves its own amount when it is made — an item the balance can no longer cover fails with `insufficient_wallet_balance`, the others go on; an account its bank cannot resolve fails its item with `validation_error`. " +
      "Each item's transfer is made once, whatever crashes or retries happen. `GET /transfers/bulk/{batch_reference}/` shows each item's transfer and its status; `batch.completed` (with `type: \"transfers\"`) is sent once every item is done.",
  })
  @ApiContract({
    body: BulkTransfersRequest,
    response: TransferBatchResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'insufficient_wallet_balance', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: BulkTransfersRequest): Promise<TransferBatchResponse> {
    return toTransferBatchResponse(await this.batches.create(ctx, { currency: body.currency, items: await checkItems(body.items) }));
  }

  @Get(':batch_reference')
  @Authenticated({ scope: 'transfers:read', liveOnly: true })
  @ApiOperation({ summary: 'A transfer batch: status, counts, and each item with its transfer and the transfer\'s status now' })
  @ApiContract({ response: TransferBatchResponse, errors: ['batch_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('batch_reference') reference: string): Promise<TransferBatchResponse> {
    return toTransferBatchResponse(await this.batches.get(ctx, reference));
  }
}

/** Items validated between two turns of the event loop: a few milliseconds of work. */
const ITEMS_PER_TURN = 50;

/**
 * Each item as `POST /transfers/` validates its body — its fields, then its form — with every error
 * keyed by the item's index. class-validator's promises resolve without yielding, so a full batch
 * would hold the event loop for tens of milliseconds in one go: it yields every ITEMS_PER_TURN items.
 * @throws validation_error
 */
async function checkItems(raw: CreateTransferRequest[]): Promise<NewTransfer[]> {
  const errors: FieldErrors = {};
  const items: NewTransfer[] = [];
  for (const [index, plain] of raw.entries()) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const item = plainToInstance(CreateTransferRequest, plain);
    const fieldErrors = flattenValidationErrors(await validate(item, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }));
    for (const [field, messages] of Object.entries(transferFormErrors(item))) fieldErrors[field] = [...(fieldErrors[field] ?? []), ...messages];
    for (const [field, messages] of Object.entries(fieldErrors)) errors[`items.${index}.${field}`] = messages;
    items.push(toNewTransfer(item));
  }
  if (Object.keys(errors).length) throw new DomainError('validation_error', 'Some items are not valid; nothing was created.', errors);
  return items;
}
