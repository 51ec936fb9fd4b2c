import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNumber, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ListQueryDto } from '../pagination';

/**
 * draft → sent (PATCH `action: "send"`) → partially_paid → paid; sent / partially_paid past
 * `due_date` → overdue (then a full payment still makes it paid); draft / sent / overdue →
 * cancelled (PATCH `action: "cancel"`). See docs/invoices.md.
 */
export const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'overdue', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_ACTIONS = ['send', 'cancel'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** Most line items one invoice may have. */
export const MAX_INVOICE_LINE_ITEMS = 100;
/** Most decimal places of a line item's quantity (e.g. 2.5 hours, 0.125 kg). */
export const MAX_QUANTITY_DECIMALS = 4;
/** Largest quantity of one line item. */
export const MAX_QUANTITY = 1_000_000;
export const MAX_LINE_DESCRIPTION_LENGTH = 200;

/** YYYY-MM-DD with a plausible month and day; the service also checks that the date exists (no 2026-02-30). */
export const INVOICE_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class InvoiceLineItemRequest {
  /** 1–200 characters, shown to the customer on the payment page. @example "Consulting, November" */
  @IsString({ message: 'description must be a string' })
  @MinLength(1)
  @MaxLength(MAX_LINE_DESCRIPTION_LENGTH)
  description: string;

  /** > 0, at most 4 decimal places, at most 1,000,000 (checked exactly by the service). @example 2.5 */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'quantity must be a number' })
  quantity: number;

  /** Major unit, > 0, at most 2 decimal places (checked exactly by the service). @example 33.33 */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'unit_price must be a number' })
  unit_price: number;
}

export class CreateInvoiceRequest {
  /** The customer (`CUS_…`) the invoice is for; the payment link charges their e-mail. @example "CUS_6f1c2a9e0b7d4c3a8e51" */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  customer_reference: string;

  /** YYYY-MM-DD, a real calendar date, not before the tenant's today (UTC). @example "2026-12-31" */
  @IsString()
  @Matches(INVOICE_DATE, { message: 'due_date must be a date (YYYY-MM-DD)' })
  due_date: string;

  /** NGN, USD, GBP or KES (one the mode's provider account takes payments in). @example "NGN" */
  @IsString({ message: 'currency must be a string' })
  currency: string;

  /** 1 to 100 items. */
  @IsArray()
  @ArrayMinSize(1, { message: 'line_items must have at least 1 item' })
  @ArrayMaxSize(MAX_INVOICE_LINE_ITEMS, { message: `line_items must have at most ${MAX_INVOICE_LINE_ITEMS} items` })
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineItemRequest)
  line_items: InvoiceLineItemRequest[];
}

/**
 * Either `action` alone (`send`, `cancel`), or any of the draft's fields to replace (a new
 * `line_items` replaces all of them and recomputes `total_amount`).
 */
export class UpdateInvoiceRequest {
  @IsOptional()
  @IsIn(INVOICE_ACTIONS, { message: `action must be one of ${INVOICE_ACTIONS.join(', ')}` })
  action?: InvoiceAction;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  customer_reference?: string;

  @IsOptional()
  @IsString()
  @Matches(INVOICE_DATE, { message: 'due_date must be a date (YYYY-MM-DD)' })
  due_date?: string;

  @IsOptional()
  @IsString({ message: 'currency must be a string' })
  currency?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'line_items must have at least 1 item' })
  @ArrayMaxSize(MAX_INVOICE_LINE_ITEMS, { message: `line_items must have at most ${MAX_INVOICE_LINE_ITEMS} items` })
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineItemRequest)
  line_items?: InvoiceLineItemRequest[];
}

export class ListInvoicesQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}` })
  status?: InvoiceStatus;

  /** A customer reference (`CUS_…`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer?: string;

  /** Invoices due on or after this date (YYYY-MM-DD). */
  @IsOptional()
  @Matches(INVOICE_DATE, { message: 'due_from must be a date (YYYY-MM-DD)' })
  due_from?: string;

  /** Invoices due on or before this date (YYYY-MM-DD). */
  @IsOptional()
  @Matches(INVOICE_DATE, { message: 'due_to must be a date (YYYY-MM-DD)' })
  due_to?: string;
}

export class InvoiceLineItemResponse {
  description: string;
  quantity: number;
  unit_price: number;
  /** quantity × unit_price, rounded half-up to the cent. */
  amount: number;
}

export class InvoiceResponse {
  /** `INV_…`, used in paths. */
  reference: string;
  customer_reference: string;
  /** YYYY-MM-DD */
  due_date: string;
  currency: string;
  line_items: InvoiceLineItemResponse[];
  /** Σ line amounts (each quantity × unit_price rounded half-up to the cent). */
  total_amount: number;
  /** Money received through the payment link. May exceed `total_amount` when two checkouts completed at once (the excess stays in the wallet, refundable). */
  amount_paid: number;
  /** max(total_amount − amount_paid, 0). */
  amount_due: number;
  status: InvoiceStatus;
  /** The public page where the customer pays (set by `send`); null for a draft or a cancelled invoice. */
  payment_link: string | null;
  sent_at: string | null;
  paid_at: string | null;
  overdue_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export class InvoiceDeletedResponse {
  reference: string;
  deleted: true;
}
