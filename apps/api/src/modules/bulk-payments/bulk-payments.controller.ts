import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BulkPaymentsRequest, ChargePaymentRequest, type FieldErrors, InitializePaymentRequest, PaymentBatchResponse } from '@gateway/contracts';
import { BulkBatchesService, type BulkItem, toPaymentBatchResponse } from '@gateway/domain/bulk-payments';
import { type DeveloperContext, DomainError } from '@gateway/platform';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { oversizedArrays } from '../../http/body-arrays/array-limits';
import { BodyArrayLimit } from '../../http/body-arrays/body-array-limit.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';
import { flattenValidationErrors } from '../../http/validation.pipe';

const PAYLOADS = { initialize: InitializePaymentRequest, charge: ChargePaymentRequest } as const;

@ApiTags('Payments')
@Controller('payments/bulk')
export class BulkPaymentsController {
  constructor(private readonly batches: BulkBatchesService) {}

  @Post()
  @Idempotent()
  @HttpCode(202)
  @Authenticated({ scope: 'payments:write' })
  // Counted before anything else reads the body: more items than configured are refused unread.
  @BodyArrayLimit({ items: (config) => config.payments.bulkMaxItems })
  @ApiOperation({
    summary: 'Bulk initialize or charge',
    description:
      '`items`: up to 1,000 (`PAYMENT_BULK_MAX_ITEMS`) of `{"type": "initialize", …initialize payload}` or `{"type": "charge", …charge payload}`. More items are refused with 400 `validation_error` on `items` before any item is read. Every item is validated first: one bad item refuses the whole batch with 400 `validation_error`, errors keyed `items.<index>.<field>`, and nothing is created. ' +
      'Accepted batches (202, status `processing`) are processed in the background; `GET /payments/bulk/{batch_reference}/` shows counts and per-item results, and `batch.completed` is sent when every item is done. Each item runs under its own idempotency key, so it never creates two payments, even after a crash.',
  })
  @ApiContract({ body: BulkPaymentsRequest, response: PaymentBatchResponse, status: 202, errors: ['validation_error'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: BulkPaymentsRequest): Promise<PaymentBatchResponse> {
    const items = await checkItems(body.items);
    const batch = await this.batches.create(ctx, items);
    const { batch: stored, items: rows } = await this.batches.get(ctx, batch.reference);
    return toPaymentBatchResponse(stored, rows);
  }

  @Get(':batch_ref')
  @Authenticated({ scope: 'payments:read' })
  @ApiOperation({ summary: 'A bulk batch: status, counts and per-item results' })
  @ApiContract({ response: PaymentBatchResponse, errors: ['batch_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('batch_ref') reference: string): Promise<PaymentBatchResponse> {
    const { batch, items } = await this.batches.get(ctx, reference);
    return toPaymentBatchResponse(batch, items);
  }
}

/** Items validated between two turns of the event loop: a few milliseconds of work. */
const ITEMS_PER_TURN = 50;

/**
 * Each item against its payload's own DTO, exactly as the single endpoints validate it (array
 * limits first, like the validation pipe). class-validator's promises resolve without ever
 * yielding, so a full batch would hold the event loop for tens of milliseconds in one go: it
 * yields every ITEMS_PER_TURN items to let other requests through.
 * @throws validation_error
 */
async function checkItems(raw: Array<Record<string, unknown>>): Promise<BulkItem[]> {
  const errors: FieldErrors = {};
  const items: BulkItem[] = [];
  for (const [index, { type, ...payload }] of raw.entries()) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (type !== 'initialize' && type !== 'charge') {
      errors[`items.${index}.type`] = ['must be "initialize" or "charge"'];
      continue;
    }
    const oversized = oversizedArrays(PAYLOADS[type], payload, {}, `items.${index}`);
    if (Object.keys(oversized).length) {
      Object.assign(errors, oversized);
      continue;
    }
    const failures = await validate(plainToInstance(PAYLOADS[type], payload) as object, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    Object.assign(errors, flattenValidationErrors(failures, `items.${index}`));
    items.push({ type, payload });
  }
  if (Object.keys(errors).length) throw new DomainError('validation_error', 'Some items are not valid; nothing was created.', errors);
  return items;
}
